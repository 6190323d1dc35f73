// A reader for git's config file format (Documentation/config.txt, "Syntax"): enough for the keys
// scion needs (user.*, extensions.*, core.bare). `include`/`includeIf` are not followed.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface ConfigEntry {
  /** Lower-cased section name, with the subsection appended: `user`, `remote.origin`. */
  readonly section: string;
  /** Lower-cased key. */
  readonly key: string;
  /** `true` for a bare key with no `=` (a boolean true in git). */
  readonly value: string | true;
}

export function parseConfig(text: string): ConfigEntry[] {
  const out: ConfigEntry[] = [];
  let section = '';
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = (lines[i] as string).trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[')) {
      const m = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
      if (!m) continue;
      const name = (m[1] as string).toLowerCase();
      // `[section "Sub"]` keeps the subsection's case; the old `[section.sub]` form lower-cases it.
      section = m[2] !== undefined ? `${name}.${m[2].replace(/\\(.)/g, '$1')}` : name;
      line = (m[3] as string).trim();
      if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    }
    const km = /^([A-Za-z][A-Za-z0-9-]*)\s*(=?)(.*)$/.exec(line);
    if (!km) continue;
    const key = (km[1] as string).toLowerCase();
    if (km[2] === '') {
      out.push({ section, key, value: true });
      continue;
    }
    let raw = km[3] as string;
    // A trailing backslash continues the value on the next line.
    while (/(^|[^\\])(\\\\)*\\$/.test(raw) && i + 1 < lines.length) raw = raw.slice(0, -1) + (lines[++i] as string);
    out.push({ section, key, value: unquote(raw) });
  }
  return out;
}

function unquote(raw: string): string {
  let out = '';
  let quoted = false;
  let pendingSpace = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (c === '\\') {
      const n = raw[++i];
      out += pendingSpace + (n === 'n' ? '\n' : n === 't' ? '\t' : n === 'b' ? '\b' : (n ?? ''));
      pendingSpace = '';
    } else if (c === '"') {
      out += pendingSpace;
      pendingSpace = '';
      quoted = !quoted;
    } else if (!quoted && (c === '#' || c === ';')) {
      break;
    } else if (!quoted && (c === ' ' || c === '\t')) {
      // Inner runs of unquoted whitespace are kept; leading and trailing ones are not.
      if (out !== '') pendingSpace += c;
    } else {
      out += pendingSpace + c;
      pendingSpace = '';
    }
  }
  return out;
}

/** Entries of a config file, or none when it does not exist. */
export function readConfigFile(path: string): ConfigEntry[] {
  try {
    return parseConfig(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
}

/** The last value of `section.key` (git's "last one wins"), or undefined. `section` as parsed: lower-case name. */
export function configValue(entries: readonly ConfigEntry[], section: string, key: string): string | true | undefined {
  let v: string | true | undefined;
  const k = key.toLowerCase();
  for (const e of entries) if (e.section === section && e.key === k) v = e.value;
  return v;
}

/**
 * The system and global config files git reads, in its order: /etc/gitconfig (GIT_CONFIG_SYSTEM;
 * none with GIT_CONFIG_NOSYSTEM), then GIT_CONFIG_GLOBAL or $XDG_CONFIG_HOME/git/config and
 * ~/.gitconfig.
 */
export function globalConfigFiles(env: Readonly<Record<string, string | undefined>>): ConfigEntry[][] {
  const home = env['HOME'] ?? homedir();
  const files: ConfigEntry[][] = [];
  if (!/^(1|true|yes|on)$/i.test(env['GIT_CONFIG_NOSYSTEM'] ?? '')) files.push(readConfigFile(env['GIT_CONFIG_SYSTEM'] ?? '/etc/gitconfig'));
  if (env['GIT_CONFIG_GLOBAL'] !== undefined) {
    files.push(readConfigFile(env['GIT_CONFIG_GLOBAL']));
  } else {
    files.push(readConfigFile(join(env['XDG_CONFIG_HOME'] ?? join(home, '.config'), 'git', 'config')));
    files.push(readConfigFile(join(home, '.gitconfig')));
  }
  return files;
}
