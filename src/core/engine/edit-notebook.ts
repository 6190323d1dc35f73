// NotebookEditTool: one cell replaced, inserted or deleted. Positioned by cell, so no string matching;
// a partial read is enough, as in the seed.
import { failure, fail } from '../../errors.js';
import { editCells, type Notebook } from '../notebook/edit-cells.js';
import { serializeNotebook } from '../notebook/serialize.js';
import type { EngineOptions, EngineResult, FileInput, NotebookEdit } from '../types.js';
import { finish } from './finish.js';
import { prepare } from './prepare.js';

export function editNotebook(file: FileInput, edit: NotebookEdit, opts: EngineOptions = {}): EngineResult {
  const front = prepare(file, { added: [edit.source], mayCreate: false, refuseNotebook: false, partialReadOk: true }, opts);
  if (!front.ok) return front;
  const { path: p, decoded: d } = front.value;

  const nb = parseNotebook(d.text);
  if (nb === null) {
    return fail(failure('notebook', `${p} is not a valid notebook: it must be JSON with a "cells" array.`, { path: p }));
  }
  const slots = editCells(nb, edit, p, d.text);
  if (!slots.ok) return slots;
  return finish({ path: p, file, decoded: d, result: { text: serializeNotebook(d.text, nb, slots.value) } }, opts);
}

function parseNotebook(text: string): Notebook | null {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const cells = (value as { cells?: unknown }).cells;
    if (!Array.isArray(cells) || !cells.every((c) => typeof c === 'object' && c !== null && !Array.isArray(c))) return null;
    return value as Notebook;
  } catch {
    return null;
  }
}
