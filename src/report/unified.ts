// Unified diff text from the report's jsdiff-style hunks, in the shape `git diff` prints, so
// GitHub's ```diff highlighting and diff2html's parser both read it.
import type { Hunk } from '../core/types.js';
import type { FileReport } from '../model/types.js';

/** `@@ -a,b +c,d @@`; a side with no lines names the line before it, as diff(1) does. */
export function hunkHeader(h: Hunk): string {
  const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
  const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
  return `@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@`;
}

/** The file's whole change as unified diff text ending in a newline; '' when it has no hunks. */
export function unifiedDiff(file: FileReport): string {
  const hunks = file.hunks ?? [];
  if (hunks.length === 0) return '';
  const out = [`--- ${file.created ? '/dev/null' : `a/${file.path}`}`, file.deleted ? '+++ /dev/null' : `+++ b/${file.path}`];
  for (const h of hunks) {
    out.push(hunkHeader(h));
    for (const line of h.lines) out.push(line);
  }
  return `${out.join('\n')}\n`;
}
