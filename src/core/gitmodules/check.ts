// fsck's rules for what a .gitmodules holds (fsck.c fsck_blob / fsck_gitmodules_fn), so a commit
// scion writes passes `git fsck --strict` and a server's receive.fsckObjects. A hostile .gitmodules
// is how submodule attacks reach a clone: a url or path git would pass as a command-line option, a
// submodule name that climbs out of .git/modules, an `update = !command`. Pure.
import { parseGitConfig } from './parse.js';
import { submoduleUrlProblem } from './url.js';

/** fsck's message ids for these rules, as `git fsck` prints them (and `fsck.<id>` configures them). */
export type GitmodulesRule = 'gitmodulesParse' | 'gitmodulesName' | 'gitmodulesUrl' | 'gitmodulesPath' | 'gitmodulesUpdate' | 'gitmodulesLarge';

export interface GitmodulesProblem {
  readonly rule: GitmodulesRule;
  /** 1-based; 0 for the file as a whole. */
  readonly line: number;
  /** What is wrong, in a phrase that reads after the file's name. */
  readonly detail: string;
}

/**
 * The largest .gitmodules accepted. git parses one only when it loads it whole (below
 * core.bigFileThreshold: 512 MiB by default, often far less on servers) and else fails fsck with
 * gitmodulesLarge; 1 MiB holds thousands of submodules, far beyond any real .gitmodules.
 */
export const MAX_GITMODULES_BYTES = 1024 * 1024;

/** The first rule `bytes` breaks as a .gitmodules, or null when fsck would accept it. */
export function gitmodulesProblem(bytes: Uint8Array): GitmodulesProblem | null {
  if (bytes.length > MAX_GITMODULES_BYTES) {
    return { rule: 'gitmodulesLarge', line: 0, detail: `is ${bytes.length} bytes, more than the ${MAX_GITMODULES_BYTES} a .gitmodules may hold` };
  }
  const odd = oddByte(bytes);
  if (odd !== null) return { rule: 'gitmodulesParse', ...odd };
  const parsed = parseGitConfig(bytes);
  if (!parsed.ok) return { rule: 'gitmodulesParse', line: parsed.error.line, detail: `cannot be read as git config: ${parsed.error.why}` };
  for (const entry of parsed.value) {
    // parse_config_key(var, "submodule", ...): the subsection runs to the last dot, the key follows it.
    if (!entry.name.startsWith('submodule.')) continue;
    const rest = entry.name.slice('submodule'.length);
    const dot = rest.lastIndexOf('.');
    if (dot === 0) continue; // [submodule] without a name
    const name = rest.slice(1, dot);
    const key = rest.slice(dot + 1);
    const line = entry.line;
    if (badSubmoduleName(name)) {
      const detail =
        name === ''
          ? 'names a submodule with an empty name'
          : `names a submodule ${show(name)} with a ".." component (its folder would lie outside .git/modules)`;
      return { rule: 'gitmodulesName', line: entry.headerLine || line, detail };
    }
    const value = entry.value;
    if (value === null) continue;
    if (key === 'url') {
      const why = submoduleUrlProblem(value);
      if (why !== null) return { rule: 'gitmodulesUrl', line, detail: `gives submodule ${show(name)} the url ${show(value)}, which ${why}` };
    }
    if (key === 'path' && value.startsWith('-')) {
      return { rule: 'gitmodulesPath', line, detail: `gives submodule ${show(name)} the path ${show(value)}, which git would read as a command-line option` };
    }
    // parse_submodule_update_type: a value starting with "!" is a shell command run on update.
    if (key === 'update' && value.startsWith('!')) {
      const detail = `gives submodule ${show(name)} update = ${show(value)}, a shell command "git submodule update" would run`;
      return { rule: 'gitmodulesUpdate', line, detail };
    }
  }
  return null;
}

/**
 * Bytes git's blob reader and its file reader disagree on: it does not skip a byte order mark in a
 * blob (fsck: gitmodulesParse), takes the byte 0xFF for the end of a blob (fsck checks nothing
 * after it, while a checkout reads on), and ends a value at a NUL. Refused, so every reader sees the same.
 */
function oddByte(bytes: Uint8Array): { line: number; detail: string } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { line: 1, detail: 'starts with a byte order mark, which git does not skip in a .gitmodules' };
  }
  let line = 1;
  for (const b of bytes) {
    if (b === 0x0a) line++;
    else if (b === 0xff) return { line, detail: 'holds the byte 0xFF, which git reads as the end of a .gitmodules (fsck would check nothing after it)' };
    else if (b === 0) return { line, detail: 'holds a NUL byte' };
  }
  return null;
}

/** check_submodule_name: empty, or ".." between separators ("/" or "\\" on every platform). */
function badSubmoduleName(name: string): boolean {
  return name === '' || name.split(/[/\\]/).includes('..');
}

/** A value for a message: its bytes read as UTF-8, quoted so a newline shows, cut when long. */
function show(bytes: string): string {
  const text = Buffer.from(bytes, 'latin1').toString('utf8');
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}
