// Line helpers over big texts that avoid splitting the whole file: lines keep their '\n', as jsdiff's do.

/** The lines of s, each keeping its '\n' (only the last may lack one); agent/tools/cat-n.ts's catLines drops them. */
export function linesWithNewlines(s: string): string[] {
  const out: string[] = [];
  let p = 0;
  for (;;) {
    const nl = s.indexOf('\n', p);
    if (nl === -1) {
      if (p < s.length) out.push(s.slice(p));
      return out;
    }
    out.push(s.slice(p, nl + 1));
    p = nl + 1;
  }
}

/** Lines in text[start, end); the last one may lack its '\n' only at the end of the text. */
export function countLines(text: string, start: number, end: number): number {
  let n = 0;
  let p = start;
  for (let nl = text.indexOf('\n', p); nl !== -1 && nl < end; nl = text.indexOf('\n', p)) {
    n++;
    p = nl + 1;
  }
  return p < end ? n + 1 : n;
}

/** The first k lines of text[start, end). */
export function headLines(text: string, start: number, end: number, k: number): string[] {
  const out: string[] = [];
  let p = start;
  while (out.length < k && p < end) {
    const nl = text.indexOf('\n', p);
    const lineEnd = nl === -1 || nl >= end ? end : nl + 1;
    out.push(text.slice(p, lineEnd));
    p = lineEnd;
  }
  return out;
}

/** The last k lines of text[start, end), in order. */
export function tailLines(text: string, start: number, end: number, k: number): string[] {
  const out: string[] = [];
  let lineEnd = end;
  while (out.length < k && lineEnd > start) {
    // The line's own '\n' sits at lineEnd - 1; the one before it ends the previous line.
    const prev = lineEnd - 2 < start ? -1 : text.lastIndexOf('\n', lineEnd - 2);
    const lineStart = prev < start ? start : prev + 1;
    out.push(text.slice(lineStart, lineEnd));
    lineEnd = lineStart;
  }
  return out.reverse();
}
