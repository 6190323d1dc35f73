// A small lexer shared by all languages, used only to line up a match with its fix (layout.ts): words,
// runs of operator characters, brackets, quoted strings and comments, each with the whitespace before
// it. It does not need to be right about a language, only deterministic: the same text always lexes
// the same way, so shared text lines up. Whatever it gets wrong costs layout, never content: where
// scion keeps the source's whitespace, the syntax tree confirms it is not inside a string.
import type { Lexicon } from './languages.js';

export interface Token {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** Offset where the whitespace before the token starts (== start when there is none). */
  readonly wsStart: number;
  readonly comment: boolean;
  /** Brackets open in the whitespace before the token, counted from the start of the text (may go negative). */
  readonly depth: number;
}

export interface Lexed {
  readonly tokens: readonly Token[];
  /** Offset where the whitespace after the last token starts. */
  readonly trailingStart: number;
}

const WS = /\s/u;
const WORD = /[\p{L}\p{N}_$]/u;
const OPERATOR = '!%&*+-./:<=>?@^|~';

/**
 * `stops`: ascending offsets no token may cross. A fix is lexed with a stop at each seam between
 * template text and a metavariable's value, so a value ending in a line comment cannot swallow the
 * template's closing parenthesis.
 */
export function lex(text: string, lexicon: Lexicon, stops: readonly number[] = []): Lexed {
  const tokens: Token[] = [];
  let depth = 0;
  let p = 0;
  let k = 0;
  for (;;) {
    const n = text.length;
    const wsStart = p;
    while (p < n && WS.test(text[p] as string)) p++;
    if (p >= n) return { tokens, trailingStart: wsStart };
    const start = p;
    while (k < stops.length && (stops[k] as number) <= start) k++;
    const limit = Math.min(n, stops[k] ?? n);
    let comment = false;
    const c = text[p] as string;
    const block = lexicon.blockComments.find(([open]) => text.startsWith(open, p));
    if (block) {
      const close = text.indexOf(block[1], p + block[0].length);
      p = close === -1 ? n : close + block[1].length;
      comment = true;
    } else if (lexicon.lineComments.some((l) => text.startsWith(l, p))) {
      const nl = text.indexOf('\n', p);
      p = nl === -1 ? n : nl;
      comment = true;
    } else if (c === '"' || c === "'" || c === '`') {
      p = stringEnd(text, p, lexicon.tripleQuotes);
    } else if (WORD.test(c)) {
      p++;
      while (p < limit && WORD.test(text[p] as string)) p++;
    } else if (OPERATOR.includes(c)) {
      p++;
      while (p < limit && OPERATOR.includes(text[p] as string) && !startsComment(text, p, lexicon)) p++;
    } else if (c === '\\' && p + 1 < n) {
      p += 2;
    } else {
      // One code point: brackets, commas, semicolons, symbols, an emoji (a surrogate pair).
      p += (text.codePointAt(p) as number) > 0xffff ? 2 : 1;
    }
    if (p > limit) p = limit;
    const tokenText = text.slice(start, p);
    tokens.push({ text: tokenText, start, end: p, wsStart, comment, depth });
    if (tokenText === '(' || tokenText === '[' || tokenText === '{') depth++;
    else if (tokenText === ')' || tokenText === ']' || tokenText === '}') depth--;
  }
}

function startsComment(text: string, p: number, lexicon: Lexicon): boolean {
  return lexicon.lineComments.some((l) => text.startsWith(l, p)) || lexicon.blockComments.some(([open]) => text.startsWith(open, p));
}

/** End of the string starting at `p`; an unterminated quote is a token of its own. */
function stringEnd(text: string, p: number, triple: boolean): number {
  const q = text[p] as string;
  if (triple && (q === '"' || q === "'") && text.startsWith(q.repeat(3), p)) {
    const close = text.indexOf(q.repeat(3), p + 3);
    return close === -1 ? p + 1 : close + 3;
  }
  for (let i = p + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === q) return i + 1;
    // Only backquoted (template) strings span lines.
    if (c === '\n' && q !== '`') return p + 1;
  }
  return p + 1;
}
