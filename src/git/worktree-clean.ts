// What `git add` stores for a file's bytes: the "clean" side of git's end-of-line conversion
// (convert.c), so files a command writes in a worktree are committed as native git would commit them.
// Covered: core.autocrlf (true/input: CRLF→LF for files that look like text), .gitattributes `text`,
// `-text`, `text=auto`, `eol=lf|crlf` (implies text), the `binary` macro; the lookup order of
// $GIT_DIR/info/attributes over deeper .gitattributes over shallower ones, later lines over earlier;
// git's "safe" rule that auto conversion leaves a file alone whose indexed blob already holds a CR.
// Not covered: filter drivers (LFS, smudge/clean), `ident`, `working-tree-encoding`, `[attr]` macros
// other than `binary`, quoted patterns, core.attributesFile and core.safecrlf warnings.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configValue } from './config.js';
import { globToRegex } from './wildmatch.js';
import { repoState, type Repo } from './repo.js';

type Text = 'set' | 'unset' | 'auto';
type Eol = 'lf' | 'crlf';

interface AttrRule {
  readonly base: string;
  readonly regex: RegExp;
  readonly nameOnly: boolean;
  readonly text?: Text | null; // null: reset to unspecified (`!text`)
  readonly eol?: Eol | null;
}

/** (path, bytes of a regular file, its base blob id or null) → the bytes git would store. */
export type CleanFilter = (path: string, bytes: Uint8Array, baseOid: string | null) => Uint8Array;

export function worktreeCleaner(repo: Repo, root: string): CleanFilter {
  const state = repoState(repo);
  const autocrlf = String(configValue(state.config, 'core', 'autocrlf') ?? 'false').toLowerCase();
  const auto = autocrlf === 'true' || autocrlf === 'input' || autocrlf === 'yes' || autocrlf === 'on' || autocrlf === '1';
  const perDir = new Map<string, AttrRule[]>();
  const rulesIn = (dir: string): AttrRule[] => {
    let rules = perDir.get(dir);
    if (!rules) {
      rules = parseAttributes(readText(join(root, dir, '.gitattributes')), dir === '' ? '' : `${dir}/`);
      perDir.set(dir, rules);
    }
    return rules;
  };
  const info = parseAttributes(readText(join(repo.commonDir, 'info', 'attributes')), '');

  return (path, bytes, baseOid) => {
    // Lowest precedence first: the top .gitattributes, deeper ones, then info/attributes.
    const parts = path.split('/');
    const rules: AttrRule[] = [];
    for (let i = 0; i < parts.length; i++) rules.push(...rulesIn(parts.slice(0, i).join('/')));
    rules.push(...info);
    const text = lookup(rules, path, 'text');
    const eol = lookup(rules, path, 'eol');

    let action: 'none' | 'text' | 'auto';
    if (text === 'unset') action = 'none';
    else if (text === 'set') action = 'text';
    else if (text === 'auto') action = 'auto';
    else if (eol !== undefined) action = 'text';
    else action = auto ? 'auto' : 'none';
    if (action === 'none' || !hasCrlf(bytes)) return bytes;
    if (action === 'auto') {
      if (looksBinary(bytes)) return bytes;
      // git's safe rule: a file committed with CRs is left as it is by auto conversion.
      if (baseOid !== null && state.store.read(baseOid).data.includes(0x0d)) return bytes;
    }
    return crlfToLf(bytes);
  };
}

function lookup<K extends 'text' | 'eol'>(rules: readonly AttrRule[], path: string, key: K): AttrRule[K] | undefined {
  for (let i = rules.length - 1; i >= 0; i--) {
    const r = rules[i]!;
    if (r[key] === undefined || !path.startsWith(r.base)) continue;
    const rel = path.slice(r.base.length);
    if (r.regex.test(r.nameOnly ? rel.slice(rel.lastIndexOf('/') + 1) : rel)) return r[key] ?? undefined;
  }
  return undefined;
}

export function parseAttributes(text: string | null, base: string): AttrRule[] {
  if (text === null) return [];
  const out: AttrRule[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '').trim();
    if (line === '' || line.startsWith('#')) continue;
    const [pattern, ...attrs] = line.split(/[ \t]+/);
    // A folder pattern (trailing /) never matches a file; negative patterns are not allowed in git.
    if (!pattern || pattern.endsWith('/') || pattern.startsWith('!')) continue;
    let textAttr: Text | null | undefined;
    let eolAttr: Eol | null | undefined;
    for (const a of attrs) {
      if (a === 'text') textAttr = 'set';
      else if (a === '-text' || a === 'binary') textAttr = 'unset';
      else if (a === 'text=auto') textAttr = 'auto';
      else if (a === '!text') textAttr = null;
      else if (a === 'eol=lf') eolAttr = 'lf';
      else if (a === 'eol=crlf') eolAttr = 'crlf';
      else if (a === '!eol' || a === '-eol') eolAttr = null;
    }
    if (textAttr === undefined && eolAttr === undefined) continue;
    const nameOnly = !pattern.includes('/');
    const glob = pattern.startsWith('/') ? pattern.slice(1) : pattern;
    out.push({
      base,
      regex: new RegExp(`^${globToRegex(glob)}$`),
      nameOnly,
      ...(textAttr === undefined ? {} : { text: textAttr }),
      ...(eolAttr === undefined ? {} : { eol: eolAttr }),
    });
  }
  return out;
}

function hasCrlf(b: Uint8Array): boolean {
  for (let i = b.indexOf(0x0d); i !== -1 && i + 1 < b.length; i = b.indexOf(0x0d, i + 1)) if (b[i + 1] === 0x0a) return true;
  return false;
}

/** git's convert_is_binary: a NUL, a lone CR, or more than 1/128 non-printable bytes. */
export function looksBinary(b: Uint8Array): boolean {
  let printable = 0;
  let nonprintable = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0x0d) {
      if (b[i + 1] === 0x0a) {
        i++;
        continue;
      }
      return true;
    }
    if (c === 0x0a) continue;
    if (c === 0) return true;
    if (c === 127) nonprintable++;
    else if (c < 32) {
      if (c === 8 || c === 9 || c === 27 || c === 12) printable++;
      else nonprintable++;
    } else printable++;
  }
  // A trailing ^Z (DOS end of file) does not count.
  if (b.length > 0 && b[b.length - 1] === 0x1a) nonprintable--;
  return printable >> 7 < nonprintable;
}

function crlfToLf(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(b.length);
  let n = 0;
  for (let i = 0; i < b.length; i++) {
    if (b[i] === 0x0d && b[i + 1] === 0x0a) continue;
    out[n++] = b[i]!;
  }
  return out.subarray(0, n);
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
