// FileEditTool: a sequence of search-and-replace edits on one file, checked in the seed's order.
import { failure, fail, type Failure } from '../../errors.js';
import { applyEditSequence } from '../edit/apply-sequence.js';
import type { Edit, EngineOptions, EngineResult, FileInput } from '../types.js';
import { fileExists } from '../edit/failures.js';
import { decodeInput, missingFailure, notebookRefusal, pathCheck, readCheck, secretCheck, sizeCheck, unicodeCheck } from './checks.js';
import { finish } from './finish.js';

export function applyEdits(file: FileInput, edits: readonly Edit[], opts: EngineOptions = {}): EngineResult {
  const added = edits.map((e) => e.new_string);
  const early = secretCheck(file.path, added, file, opts) ?? noOpCheck(file.path, edits);
  if (early) return fail(early);
  const path = pathCheck(file, opts);
  if (!path.ok) return path;
  const p = path.value;
  const late = unicodeCheck(p, added) ?? sizeCheck(p, file.bytes, opts);
  if (late) return fail(late);
  const decoded = decodeInput(p, file.bytes);
  if (!decoded.ok) return decoded;
  const d = decoded.value;

  const first = edits[0] as Edit;
  if (d === null && first.old_string !== '') return fail(missingFailure(p, opts));
  // The sequence checks this for every edit; the first is checked here to keep the seed's order.
  if (d !== null && first.old_string === '' && d.text.trim() !== '' && !(opts.skipAlreadyApplied && first.new_string !== '' && d.text.includes(first.new_string))) {
    return fail(fileExists({ path: p }));
  }
  const refused = notebookRefusal(p) ?? (d === null ? null : readCheck(p, d.text, opts, true));
  if (refused) return fail(refused);

  const applied = applyEditSequence(d?.text ?? '', edits, { path: p, skipAlreadyApplied: opts.skipAlreadyApplied === true });
  if (!applied.ok) return applied;
  return finish({ path: p, file, decoded: d, result: { regions: applied.value.regions }, skipped: applied.value.skipped }, opts);
}

function noOpCheck(path: string, edits: readonly Edit[]): Failure | null {
  if (edits.length === 0) return failure('no-op', `No edits were given for ${path}.`, { path });
  const i = edits.findIndex((e) => e.old_string === e.new_string);
  if (i === -1) return null;
  return failure('no-op', `No changes to make to ${path}: old_string and new_string are exactly the same${edits.length > 1 ? ` (edit ${i + 1})` : ''}.`, {
    path,
    edit: i,
  });
}
