// Changes computed by another engine (a structural rewrite: spans of the file's LF text and what
// replaces them), written through the same checks as every edit: secrets in the new spans, the path
// (denied, UNC, outside), size, encoding, then finish(): structured files still parse and pass the
// recipe's schema, a .gitmodules still passes fsck, and the bytes are spliced in the file's own
// encoding and line endings, every byte outside the spans kept.
import type { Change, Region } from '../edit/regions.js';
import { fail } from '../../errors.js';
import type { EngineOptions, EngineResult, FileInput } from '../types.js';
import { decodeInput, notebookRefusal, pathCheck, secretCheck, sizeCheck, unicodeCheck } from './checks.js';
import { finish } from './finish.js';

/**
 * `changes` are ascending and disjoint, in the coordinates of the file's decoded LF text (old) and
 * of the result (new), as the structural engine returns them. An existing file only.
 */
export function applyChanges(file: FileInput, changes: readonly Change[], opts: EngineOptions = {}): EngineResult {
  const added = changes.map((c) => c.text);
  const early = secretCheck(file.path, added, file, opts);
  if (early) return fail(early);
  const path = pathCheck(file, opts);
  if (!path.ok) return path;
  const p = path.value;
  const late = unicodeCheck(p, added) ?? sizeCheck(p, file.bytes, opts) ?? notebookRefusal(p);
  if (late) return fail(late);
  const decoded = decodeInput(p, file.bytes);
  if (!decoded.ok) return decoded;
  const regions: Region[] = changes.map((c) => ({ start: c.newStart, end: c.newEnd, origStart: c.oldStart, origEnd: c.oldEnd, text: c.text }));
  return finish({ path: p, file, decoded: decoded.value, result: { regions } }, opts);
}
