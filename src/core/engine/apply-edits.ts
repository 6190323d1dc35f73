// FileEditTool: a sequence of search-and-replace edits on one file, checked in the seed's order.
import { failure, type Failure } from '../../errors.js';
import { applyEditSequence } from '../edit/apply-sequence.js';
import type { Edit, EngineOptions, EngineResult, FileInput } from '../types.js';
import { fileExists } from '../edit/failures.js';
import { finish } from './finish.js';
import { prepare } from './prepare.js';

export function applyEdits(file: FileInput, edits: readonly Edit[], opts: EngineOptions = {}): EngineResult {
  const first = edits[0];
  const front = prepare(
    file,
    {
      added: edits.map((e) => e.new_string),
      refusal: noOpCheck(file.path, edits),
      // An empty old_string creates the file.
      mayCreate: first?.old_string === '',
      // The sequence checks this for every edit; the first is checked here to keep the seed's order.
      existing: (p, text) =>
        first?.old_string === '' && text.trim() !== '' && !(opts.skipAlreadyApplied && first.new_string !== '' && text.includes(first.new_string))
          ? fileExists({ path: p })
          : null,
      refuseNotebook: true,
      partialReadOk: true,
    },
    opts,
  );
  if (!front.ok) return front;
  const { path: p, decoded: d } = front.value;

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
