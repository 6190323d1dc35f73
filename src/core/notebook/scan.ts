// Where each cell of a notebook's top-level "cells" array sits in the JSON text, so untouched cells
// can be written back byte for byte. The text has already passed JSON.parse; this only measures it.

export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface CellsLayout {
  /** Index of '[' and one past ']'. */
  readonly open: number;
  readonly close: number;
  readonly elements: readonly Span[];
}

export function scanCells(text: string): CellsLayout | null {
  let i = skipSpace(text, 0);
  if (text[i] !== '{') return null;
  i = skipSpace(text, i + 1);
  let found: CellsLayout | null = null;
  while (i < text.length && text[i] !== '}') {
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, keyEnd);
    i = skipSpace(text, i + 1); // ':'
    const valueEnd = skipValue(text, i);
    // JSON.parse keeps the last of duplicate keys; so does this.
    if (key === 'cells' && text[i] === '[') found = { open: i, close: valueEnd, elements: elementsOf(text, i) };
    i = skipSpace(text, valueEnd);
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return found;
}

function elementsOf(text: string, open: number): Span[] {
  const out: Span[] = [];
  let i = skipSpace(text, open + 1);
  while (i < text.length && text[i] !== ']') {
    const end = skipValue(text, i);
    out.push({ start: i, end });
    i = skipSpace(text, end);
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return out;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\t' || text[i] === '\r')) i++;
  return i;
}

function skipString(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
  return j + 1;
}

function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    let j = i;
    while (j < text.length) {
      const ch = text[j];
      if (ch === '"') {
        j = skipString(text, j);
        continue;
      }
      if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return j;
  }
  let j = i;
  while (j < text.length && !',}] \n\t\r'.includes(text[j] as string)) j++;
  return j;
}
