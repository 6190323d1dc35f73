// Styled text laid out in terminal rows. A row is a list of segments (text + style) cut to the width
// *before* any escape sequence exists, then encoded: each row opens the styles it uses and ends with
// a reset, so wrapping can never split an escape sequence or let a colour run into the next row
// (or into the user's prompt when the output is cut short).
import stringWidth from 'string-width';
import { RESET, sgr, type Style } from './diff-theme.js';

export interface Seg {
  readonly text: string;
  readonly style: Style;
}

const ASCII = /^[\x20-\x7e]*$/;
let segmenter: Intl.Segmenter | undefined;

/** Columns `text` takes (no tabs or control characters in it: those are expanded or made visible first). */
export function columns(text: string): number {
  return ASCII.test(text) ? text.length : stringWidth(text);
}

export function rowWidth(segs: readonly Seg[]): number {
  return segs.reduce((n, s) => n + columns(s.text), 0);
}

/**
 * `segs` cut into rows of at most `width` columns (at least 1). A wide character (CJK, emoji) that
 * does not fit at the end of a row moves to the next one whole; a grapheme is never split.
 */
export function wrapSegs(segs: readonly Seg[], width: number): Seg[][] {
  const max = Math.max(1, width);
  const rows: Seg[][] = [[]];
  let used = 0;
  const put = (text: string, style: Style) => {
    const row = rows[rows.length - 1]!;
    const last = row[row.length - 1];
    if (last !== undefined && last.style === style) row[row.length - 1] = { text: last.text + text, style };
    else row.push({ text, style });
  };
  for (const seg of segs) {
    if (ASCII.test(seg.text)) {
      let at = 0;
      while (at < seg.text.length) {
        if (used === max) {
          rows.push([]);
          used = 0;
        }
        const take = Math.min(max - used, seg.text.length - at);
        put(seg.text.slice(at, at + take), seg.style);
        used += take;
        at += take;
      }
      continue;
    }
    segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    for (const { segment } of segmenter.segment(seg.text)) {
      const w = stringWidth(segment);
      if (used + w > max && used > 0) {
        rows.push([]);
        used = 0;
      }
      put(segment, seg.style);
      used += w;
    }
  }
  return rows;
}

/** One row as text: plain, or with each style change as an SGR sequence and a reset at the end of the row. */
export function encodeRow(segs: readonly Seg[], color: boolean): string {
  if (!color) return segs.map((s) => s.text).join('');
  let out = '';
  let open = '';
  let styled = false;
  for (const s of segs) {
    if (s.text === '') continue;
    const code = sgr(s.style);
    if (code !== open) {
      if (open !== '') out += RESET;
      out += code;
      open = code;
      styled ||= code !== '';
    }
    out += s.text;
  }
  // A row that set any style ends with a reset, whatever its last segment.
  return styled && !out.endsWith(RESET) ? out + RESET : out;
}
