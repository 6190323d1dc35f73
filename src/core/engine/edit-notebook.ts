// NotebookEditTool: one cell replaced, inserted or deleted. Positioned by cell, so no string matching;
// a partial read is enough, as in the seed.
import { failure, fail } from '../../errors.js';
import { editCells, type Notebook } from '../notebook/edit-cells.js';
import { serializeNotebook } from '../notebook/serialize.js';
import type { EngineOptions, EngineResult, FileInput, NotebookEdit } from '../types.js';
import { decodeInput, missingFailure, pathCheck, readCheck, secretCheck, sizeCheck, unicodeCheck } from './checks.js';
import { finish } from './finish.js';

export function editNotebook(file: FileInput, edit: NotebookEdit, opts: EngineOptions = {}): EngineResult {
  const secret = secretCheck(file.path, [edit.source], file, opts);
  if (secret) return fail(secret);
  const path = pathCheck(file, opts);
  if (!path.ok) return path;
  const p = path.value;
  const late = unicodeCheck(p, [edit.source]) ?? sizeCheck(p, file.bytes, opts);
  if (late) return fail(late);
  const decoded = decodeInput(p, file.bytes);
  if (!decoded.ok) return decoded;
  const d = decoded.value;
  if (d === null) return fail(missingFailure(p, opts));
  const unread = readCheck(p, d.text, opts, true);
  if (unread) return fail(unread);

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
