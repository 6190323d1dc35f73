// The text of a CODEOWNERS file as numbered lines, and the split of one line into its pattern and the rest.
// Both hosts read the file the same way up to here: UTF-8, any line ending, whitespace around a line ignored.

export interface Line {
  /** 1-based. */
  readonly number: number;
  /** As written, without its line ending. */
  readonly raw: string;
}

/** Bytes (or text already decoded) to lines. A UTF-8 byte-order mark is not part of the first pattern. */
export function linesOf(content: Uint8Array | string): Line[] {
  let text = typeof content === 'string' ? content : new TextDecoder('utf-8').decode(content);
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const parts = text.split('\n');
  // A final line ending does not start one more (empty) line.
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts.map((part, i) => {
    const raw = part.endsWith('\r') ? part.slice(0, -1) : part;
    return { number: i + 1, raw };
  });
}

/**
 * A line without the whitespace around it, except a trailing space escaped with a backslash (gitignore:
 * "Trailing spaces are ignored unless they are quoted with backslash").
 */
export function trimEscaped(raw: string): string {
  const start = raw.trimStart();
  const m = /(?<!\\)\s+$/.exec(start);
  return m === null ? start : start.slice(0, m.index);
}

/**
 * A line's pattern and what follows it. The pattern ends at the first whitespace not escaped with a
 * backslash, so `path\ with\ spaces/*.md @owner` keeps its spaces (GitLab's documented escape; GitHub's
 * gitignore rules escape the same way).
 */
export function splitPattern(text: string): { pattern: string; rest: string } {
  const m = /(?<!\\)\s+/.exec(text);
  if (m === null) return { pattern: text, rest: '' };
  return { pattern: text.slice(0, m.index), rest: text.slice(m.index + m[0].length) };
}

/** The whitespace-separated words of an owner list. */
export function words(rest: string): string[] {
  return rest.split(/\s+/).filter((w) => w !== '');
}

/** One character as a regular-expression atom (the patterns compile with the `u` flag). */
export function regexChar(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

/** One character as a member of a bracketed class. */
export function classChar(c: string): string {
  return /[\\\][^-]/.test(c) ? `\\${c}` : c;
}

/** Any character, newlines included. */
export const ANY = '[\\s\\S]';
