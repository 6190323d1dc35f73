// Components to unified-diff hunks, following jsdiff's structuredPatch exactly (context, merging of
// nearby changes, "\ No newline at end of file"), so hunks read the same as jsdiff's own.
import type { Hunk } from '../types.js';
import { equalHead, equalTail, type Component } from './components.js';

const NO_NEWLINE = '\\ No newline at end of file';

export function buildHunks(oldText: string, components: readonly Component[], context: number): Hunk[] {
  const comps: Component[] = [...components, { kind: 'equal', parts: [], count: 0 }];
  const hunks: { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }[] = [];
  let oldRangeStart = 0;
  let newRangeStart = 0;
  let cur: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (let i = 0; i < comps.length; i++) {
    const c = comps[i] as Component;
    if (c.kind !== 'equal') {
      if (!oldRangeStart) {
        const prev = comps[i - 1];
        oldRangeStart = oldLine;
        newRangeStart = newLine;
        if (prev?.kind === 'equal' && context > 0) {
          cur = equalTail(oldText, prev, context).map((l) => ' ' + l);
          oldRangeStart -= cur.length;
          newRangeStart -= cur.length;
        }
      }
      const sign = c.kind === 'added' ? '+' : '-';
      for (const line of c.lines) cur.push(sign + line);
      if (c.kind === 'added') newLine += c.lines.length;
      else oldLine += c.lines.length;
      continue;
    }
    if (oldRangeStart) {
      if (c.count <= context * 2 && i < comps.length - 2) {
        // Close enough to the next change: the whole gap becomes context of one hunk.
        for (const line of equalHead(oldText, c, c.count)) cur.push(' ' + line);
      } else {
        const size = Math.min(c.count, context);
        for (const line of equalHead(oldText, c, size)) cur.push(' ' + line);
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
  for (const hunk of hunks) hunk.lines = withoutNewlines(hunk.lines);
  return hunks;
}

function withoutNewlines(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (line.endsWith('\n')) out.push(line.slice(0, -1));
    else out.push(line, NO_NEWLINE);
  }
  return out;
}
