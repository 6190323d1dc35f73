// The end of every successful call: result validation, bytes in the file's own encoding, the patch.
import { fail, ok } from '../../errors.js';
import { checkContent } from '../check-path.js';
import type { EngineOptions, EngineResult, FileChange, FileInput, FilePatch } from '../types.js';
import { applyChanges, changedSpan, toChanges, type Change, type Region } from '../edit/regions.js';
import { isStructured, validateResult } from '../edit/validate-result.js';
import { patchFromChanges } from '../patch/make-patch.js';
import type { DecodedFile } from '../text/decode.js';
import { encodeRaw } from '../text/encode.js';
import { spliceBytes } from '../text/splice-bytes.js';

export interface Outcome {
  readonly path: string;
  readonly file: FileInput;
  readonly decoded: DecodedFile | null;
  /** The result: the tracked regions of an edit sequence, or the whole new LF text. */
  readonly result: { readonly regions: readonly Region[] } | { readonly text: string };
  readonly skipped?: readonly number[];
  /** writeContent: the content exactly as given, written without line-ending conversion. */
  readonly verbatim?: string;
}

export function finish(o: Outcome, opts: EngineOptions): EngineResult {
  const oldText = o.decoded?.text ?? '';
  const changes = 'regions' in o.result ? toChanges(o.result.regions) : changedSpan(oldText, o.result.text);
  const given = 'text' in o.result ? o.result.text : undefined;
  // Built at most once, and only when asked for: rebuilding a 5 MB string costs more than the edit.
  let built: string | undefined = given;
  const newText = (): string => (built ??= applyChanges(oldText, changes));

  if (opts.jsonSchema !== undefined || isStructured(o.path)) {
    const invalid = validateResult(o.path, o.decoded ? oldText : null, newText(), opts.jsonSchema);
    if (invalid) return fail(invalid);
  }
  const before = o.file.bytes;
  const after = encode(o, changes, newText);
  const changed = before === null || (o.verbatim !== undefined ? !sameBytes(before, after) : changes.length > 0);
  // What git reads itself (a .gitmodules) must still pass its fsck; an untouched file is not judged here.
  const refused = changed ? checkContent(o.path, after) : null;
  if (refused) return fail(refused);
  // Also built on first use: recipe steps only need the bytes; the agent and reports read the patch.
  let patch: FilePatch | undefined;
  const change: FileChange = {
    path: o.path,
    before,
    after: changed || before === null ? after : before,
    oldText,
    get newText() {
      return newText();
    },
    get patch() {
      return (patch ??= patchFromChanges(oldText, changes));
    },
    changed,
    skipped: o.skipped ?? [],
  };
  return ok(change);
}

function encode(o: Outcome, changes: readonly Change[], newText: () => string): Uint8Array {
  const d = o.decoded;
  if (o.verbatim !== undefined) return encodeRaw(o.verbatim, d?.encoding ?? 'utf8');
  if (d === null || o.file.bytes === null) return encodeRaw(newText(), 'utf8');
  return spliceBytes(o.file.bytes, d, changes);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
