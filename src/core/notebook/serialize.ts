// Writes an edited notebook back in its own layout: same indentation, same trailing newline, and
// every cell the edit did not touch copied byte for byte from the original text.
import type { CellSlot, Notebook } from './edit-cells.js';
import { scanCells } from './scan.js';

export function serializeNotebook(originalText: string, nb: Notebook, slots: readonly CellSlot[]): string {
  const edited = { ...nb, cells: slots.map((s) => ('keep' in s ? nb.cells[s.keep] : s.cell)) };
  const indent = detectIndent(originalText);
  const spliced = splice(originalText, slots, indent);
  // The splice is an optimisation for clean diffs; if it ever disagrees with the data, write it whole.
  if (spliced !== null && sameJson(spliced, edited)) return spliced;
  return JSON.stringify(edited, null, indent) + (originalText.endsWith('\n') ? '\n' : '');
}

/** The unit of indentation: that of the first indented line (a top-level key), or none when minified. */
export function detectIndent(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? '';
}

function splice(text: string, slots: readonly CellSlot[], indent: string): string | null {
  const layout = scanCells(text);
  if (layout === null) return null;
  const els = layout.elements;
  const first = els[0];
  const last = els[els.length - 1];
  const nl = indent === '' ? '' : '\n';
  const open = first ? text.slice(layout.open + 1, first.start) : nl + indent + indent;
  const close = last ? text.slice(last.end, layout.close - 1) : nl + indent;
  const sep = els.length >= 2 ? text.slice((els[0] as { end: number }).end, (els[1] as { start: number }).start) : ',' + open;
  const elementIndent = open.slice(open.lastIndexOf('\n') + 1);
  const parts = slots.map((s) => {
    if ('keep' in s) {
      const span = els[s.keep];
      return span ? text.slice(span.start, span.end) : null;
    }
    return JSON.stringify(s.cell, null, indent).replaceAll('\n', '\n' + elementIndent);
  });
  if (parts.some((p) => p === null)) return null;
  const array = parts.length === 0 ? '[]' : '[' + open + parts.join(sep) + close + ']';
  return text.slice(0, layout.open) + array + text.slice(layout.close);
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}
