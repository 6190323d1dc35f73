// Components to unified-diff hunks, following jsdiff's structuredPatch exactly (context, merging of
// nearby changes, "\ No newline at end of file"), so hunks read the same as jsdiff's own.
import type { FilePatch } from '../types.js';
import { equalHead, equalTail, type Component } from './components.js';

const NO_NEWLINE = '\\ No newline at end of file';

export function buildHunks(oldText: string, components: readonly Component[], context: number): FilePatch {
  const comps: Component[] = [...components, { kind: 'equal', parts: [], count: 0 }];
  const hunks: { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }[] = [];
  let oldRangeStart = 0;
  let newRangeStart = 0;
  let cur: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  let added = 0;
  let removed = 0;
  for (let i = 0; i < comps.length; i++) {
    const c = comps[i] as Component;
    if (c.kind !== 'equal') {
      if (!oldRangeStart) {
        const prev = comps[i - 1];
        oldRangeStart = oldLine;
        newRangeStart = newLine;
        if (prev?.kind === 'equal' && context > 0) {
          const lead = equalTail(oldText, prev, context);
          for (const line of lead) emit(cur, ' ', line);
          oldRangeStart -= lead.length;
          newRangeStart -= lead.length;
        }
      }
      const sign = c.kind === 'added' ? '+' : '-';
      for (const line of c.lines) emit(cur, sign, line);
      if (c.kind === 'added') {
        newLine += c.lines.length;
        added += c.lines.length;
      } else {
        oldLine += c.lines.length;
        removed += c.lines.length;
      }
      continue;
    }
    if (oldRangeStart) {
      if (c.count <= context * 2 && i < comps.length - 2) {
        // Close enough to the next change: the whole gap becomes context of one hunk.
        for (const line of equalHead(oldText, c, c.count)) emit(cur, ' ', line);
      } else {
        const size = Math.min(c.count, context);
        for (const line of equalHead(oldText, c, size)) emit(cur, ' ', line);
        hunks.push({
          oldStart: oldRangeStart,
          oldLines: oldLine - oldRangeStart + size,
          newStart: newRangeStart,
          newLines: newLine - newRangeStart + size,
          lines: cur,
        });
        oldRangeStart = 0;
        newRangeStart = 0;
        cur = [];
      }
    }
    oldLine += c.count;
    newLine += c.count;
  }
  return { hunks, added, removed };
}

/** A hunk line without its '\n'; a line without one is the last of its file and gets the marker. */
function emit(lines: string[], sign: string, line: string): void {
  if (line.endsWith('\n')) lines.push(sign + line.slice(0, -1));
  else lines.push(sign + line, NO_NEWLINE);
}
