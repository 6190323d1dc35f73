// Line endings: detect the file's style, normalise to LF for editing, restore on the way out.
import type { LineEndings } from '../types.js';
import { LINE_ENDING_SAMPLE } from '../limits.js';

/** CRLF when CRLF pairs outnumber lone LFs in the first 4096 code units; LF otherwise (ties too). */
export function detectLineEndings(raw: string): LineEndings {
  const end = Math.min(raw.length, LINE_ENDING_SAMPLE);
  let crlf = 0;
  let lf = 0;
  for (let i = raw.indexOf('\n'); i !== -1 && i < end; i = raw.indexOf('\n', i + 1)) {
    if (i > 0 && raw.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? 'CRLF' : 'LF';
}

export function toLF(raw: string): string {
  return raw.includes('\r\n') ? raw.replaceAll('\r\n', '\n') : raw;
}

export function fromLF(text: string, lineEndings: LineEndings): string {
  return lineEndings === 'CRLF' ? text.replaceAll('\n', '\r\n') : text;
}

/**
 * Maps ascending offsets in the LF text to offsets in the raw text it came from: each CRLF pair before
 * an offset adds one code unit.
 */
export function rawOffsets(raw: string, lfOffsets: readonly number[]): readonly number[] {
  let next = raw.indexOf('\r\n');
  if (next === -1) return lfOffsets;
  const out: number[] = [];
  let pairs = 0;
  for (const p of lfOffsets) {
    // A pair at raw index r sits at LF offset r - pairs; it lies before p when that is < p.
    while (next !== -1 && next - pairs < p) {
      pairs++;
      next = raw.indexOf('\r\n', next + 2);
    }
    out.push(p + pairs);
  }
  return out;
}
