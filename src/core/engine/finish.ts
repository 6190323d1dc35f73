// The end of every successful call: result validation, bytes in the file's own encoding, the patch.
import { fail, ok } from '../../errors.js';
import type { Encoding, EngineOptions, EngineResult, FileInput } from '../types.js';
import { toCharRegions, diffRegion, type CharRegion, type Region } from '../edit/regions.js';
import { validateResult } from '../edit/validate-result.js';
import { patchFromRegions } from '../patch/make-patch.js';
import type { DecodedFile } from '../text/decode.js';
import { encodeRaw, encodeText } from '../text/encode.js';
import { fromLF, rawOffsets } from '../text/line-endings.js';

export interface Outcome {
  readonly path: string;
  readonly file: FileInput;
  readonly decoded: DecodedFile | null;
  readonly newText: string;
  /** Where newText differs from the old text, when the caller tracked it; else found by comparison. */
  readonly regions?: readonly Region[];
  readonly skipped?: readonly number[];
  /** writeContent: the content exactly as given, written without line-ending conversion. */
  readonly verbatim?: string;
}

export function finish(o: Outcome, opts: EngineOptions): EngineResult {
  const oldText = o.decoded?.text ?? '';
  const invalid = validateResult(o.path, o.decoded ? oldText : null, o.newText, opts.jsonSchema);
  if (invalid) return fail(invalid);

  const regions = o.regions ? toCharRegions(o.regions) : diffRegion(oldText, o.newText);
  const before = o.file.bytes;
  const after = encode(o, regions);
  const changed = before === null || (o.verbatim !== undefined ? !sameBytes(before, after) : regions.length > 0);
  return ok({
    path: o.path,
    before,
    after: changed || before === null ? after : before,
    oldText,
    newText: o.newText,
    patch: patchFromRegions(oldText, o.newText, regions),
    changed,
    skipped: o.skipped ?? [],
  });
}

function encode(o: Outcome, regions: readonly CharRegion[]): Uint8Array {
  const d = o.decoded;
  const encoding: Encoding = d?.encoding ?? 'utf8';
  if (o.verbatim !== undefined) return encodeRaw(o.verbatim, encoding);
  if (d === null) return encodeRaw(o.newText, encoding);
  if (regions.length === 0 && o.file.bytes !== null) return o.file.bytes;
  if (!d.mixed) return encodeText(o.newText, encoding, d.lineEndings);
  return encodeRaw(splice(d, o.newText, regions), encoding);
}

/**
 * A file whose lines do not all end alike keeps every untouched line's own ending: only the changed
 * regions are written in the detected style, so the diff shows the edit and nothing else.
 */
function splice(d: DecodedFile, newText: string, regions: readonly CharRegion[]): string {
  const at = rawOffsets(d.raw, regions.flatMap((r) => [r.oldStart, r.oldEnd]));
  const pieces: string[] = [];
  let prev = 0;
  regions.forEach((r, k) => {
    pieces.push(d.raw.slice(prev, at[2 * k]), fromLF(newText.slice(r.newStart, r.newEnd), d.lineEndings));
    prev = at[2 * k + 1] as number;
  });
  pieces.push(d.raw.slice(prev));
  return pieces.join('');
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
