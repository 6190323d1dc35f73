// git's config syntax read the way fsck reads a .gitmodules blob (config.c git_parse_source,
// get_base_var, get_extended_base_var, get_value, parse_value), byte for byte: where git stops with
// "bad config line", this stops too, so whatever passes here is what git sees. Strings hold bytes
// (one char per byte, latin1), as git's C strings do. Pure.
import { err, ok, type Result } from '../../errors.js';

/** One `section.subsection.key = value` git hands to its config callback. */
export interface ConfigEntry {
  /** `submodule.<name>.url`: section and key lower-cased, the subsection as written. */
  readonly name: string;
  /** null for a bare key (no `=`), which git reads as boolean true. */
  readonly value: string | null;
  readonly line: number;
  /** The line of the `[section]` header the entry belongs to (0: none). */
  readonly headerLine: number;
}

/** Where git would stop with "bad config line", and why. */
export interface ConfigError {
  readonly line: number;
  readonly why: string;
}

export type ConfigParse = Result<readonly ConfigEntry[], ConfigError>;

const EOF = -1;
const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
const SPACE = 0x20;

/** git's locale-free ctype (ctype.c): only tab, LF, CR and space are space; only ASCII letters are letters. */
const isSpace = (c: number): boolean => c === SPACE || c === TAB || c === LF || c === CR;
const isAlpha = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isKeyChar = (c: number): boolean => isAlpha(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d;
const lower = (c: number): string => String.fromCharCode(c >= 0x41 && c <= 0x5a ? c + 32 : c);

class Failed {
  constructor(readonly why: string) {}
}

/** Every entry of `bytes` in order, or the line at which git would give up parsing. */
export function parseGitConfig(bytes: Uint8Array): ConfigParse {
  let pos = 0;
  let eof = false;
  let line = 1;
  // get_next_char: CRLF reads as LF, the end of the input as a final LF (again and again).
  const next = (): number => {
    let c = pos < bytes.length ? (bytes[pos++] as number) : EOF;
    if (c === CR) {
      const d = pos < bytes.length ? (bytes[pos++] as number) : EOF;
      if (d === LF) c = LF;
      else if (d !== EOF) pos--;
    }
    if (c === LF) line++;
    if (c === EOF) {
      eof = true;
      c = LF;
    }
    return c;
  };

  const baseVar = (): string => {
    let name = '';
    for (;;) {
      const c = next();
      if (eof) throw new Failed('a [section] header is not closed');
      if (c === 0x5d) return name;
      if (isSpace(c)) return extendedBaseVar(name, c);
      if (!isKeyChar(c) && c !== 0x2e) throw new Failed(`a section name holds ${show(c)}`);
      name += lower(c);
    }
  };

  // [section "subsection"]: the subsection keeps its case; a backslash takes the next byte as it is.
  const extendedBaseVar = (name: string, first: number): string => {
    let c = first;
    do {
      if (c === LF) throw new Failed('a [section] header is not closed on its line');
      c = next();
    } while (isSpace(c));
    if (c !== 0x22) throw new Failed('a [section "subsection"] header lacks its quotes');
    let out = `${name}.`;
    for (;;) {
      c = next();
      if (c === LF) throw new Failed('a subsection name is not closed on its line');
      if (c === 0x22) break;
      if (c === 0x5c) {
        c = next();
        if (c === LF) throw new Failed('a subsection name is not closed on its line');
      }
      out += String.fromCharCode(c);
    }
    if (next() !== 0x5d) throw new Failed('a [section "subsection"] header does not end with "]"');
    return out;
  };

  const value = (): string => {
    let quote = false;
    let comment = false;
    let spaces = 0;
    let out = '';
    for (;;) {
      let c = next();
      if (c === LF) {
        if (quote) throw new Failed('a quoted value is not closed on its line');
        return out;
      }
      if (comment) continue;
      if (isSpace(c) && !quote) {
        if (out.length > 0) spaces++;
        continue;
      }
      if (!quote && (c === 0x3b || c === 0x23)) {
        comment = true;
        continue;
      }
      out += ' '.repeat(spaces);
      spaces = 0;
      if (c === 0x5c) {
        c = next();
        if (c === LF) continue; // a line continuation
        const escaped = ESCAPES[c];
        if (escaped === undefined) throw new Failed(`a value holds the unknown escape \\${String.fromCharCode(c)}`);
        out += escaped;
        continue;
      }
      if (c === 0x22) {
        quote = !quote;
        continue;
      }
      out += String.fromCharCode(c);
    }
  };

  const entries: ConfigEntry[] = [];
  let base = '';
  let headerLine = 0;
  let comment = false;
  try {
    for (;;) {
      const c = next();
      if (c === LF) {
        if (eof) return ok(entries);
        comment = false;
        continue;
      }
      if (comment || isSpace(c)) continue;
      if (c === 0x23 || c === 0x3b) {
        comment = true;
        continue;
      }
      if (c === 0x5b) {
        headerLine = line;
        const name = baseVar();
        if (name === '') throw new Failed('a section name is empty');
        base = `${name}.`;
        continue;
      }
      if (!isAlpha(c)) throw new Failed(`a line starts with ${show(c)}, not a key, a [section] or a comment`);
      const at = line;
      let name = base + lower(c);
      let k: number;
      for (;;) {
        k = next();
        if (eof || !isKeyChar(k)) break;
        name += lower(k);
      }
      while (k === SPACE || k === TAB) k = next();
      let v: string | null = null;
      if (k !== LF) {
        if (k !== 0x3d) throw new Failed(`a key is followed by ${show(k)} instead of "="`);
        v = value();
      }
      entries.push({ name, value: v, line: at, headerLine });
    }
  } catch (e) {
    if (!(e instanceof Failed)) throw e;
    // `line` has moved past a newline that ended the bad line: point at the line itself.
    const at = pos > 0 && bytes[pos - 1] === LF ? line - 1 : line;
    return err({ line: Math.max(1, at), why: e.why });
  }
}

const ESCAPES: Readonly<Record<number, string>> = { 0x74: '\t', 0x62: '\b', 0x6e: '\n', 0x5c: '\\', 0x22: '"' };

function show(c: number): string {
  if (c >= 0x21 && c < 0x7f) return `"${String.fromCharCode(c)}"`;
  return `the byte 0x${c.toString(16).toUpperCase().padStart(2, '0')}`;
}
