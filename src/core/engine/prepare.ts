// The one front of every engine entry point (edits, whole-file writes, notebook edits, regex
// replaces), in the seed's order: credentials in the new strings, the call's own refusal (edits that
// change nothing), the path (denied, UNC, outside), a lone surrogate, size, decoding; then, on the
// decoded file: missing, the call's check of an existing file, the notebook refusal, read-before-edit.
// What differs between entry points is said as data in a FrontRules, so a check added here reaches all.
import { fail, ok, type Failure, type Result } from '../../errors.js';
import type { DecodedFile } from '../text/decode.js';
import type { EngineOptions, FileInput } from '../types.js';
import { decodeInput, missingFailure, notebookRefusal, pathCheck, readCheck, secretCheck, sizeCheck, unicodeCheck } from './checks.js';

export interface FrontRules {
  /** The new strings the call would write: scanned for credentials and lone surrogates. */
  readonly added: readonly string[];
  /** A refusal the arguments alone decide (an edit that changes nothing), reported after the secret check. */
  readonly refusal?: Failure | null;
  /** A missing file is created (true) or refused as `file-missing` (false). */
  readonly mayCreate: boolean;
  /** The call's own check of an existing file's text, before the notebook and read checks. */
  readonly existing?: (path: string, text: string) => Failure | null;
  /** A .ipynb is refused (`notebook`): its cells are changed through notebook edits only. */
  readonly refuseNotebook: boolean;
  /** Edits may follow a partial read; a whole-file write may not (it would overwrite unseen lines). */
  readonly partialReadOk: boolean;
}

/** A file that passed the front: its checked path and its text (null: it does not exist yet). */
export interface Prepared<D extends DecodedFile | null = DecodedFile | null> {
  readonly path: string;
  readonly decoded: D;
}

export function prepare(file: FileInput, rules: FrontRules & { readonly mayCreate: false }, opts: EngineOptions): Result<Prepared<DecodedFile>>;
export function prepare(file: FileInput, rules: FrontRules, opts: EngineOptions): Result<Prepared>;
export function prepare(file: FileInput, rules: FrontRules, opts: EngineOptions): Result<Prepared> {
  const early = secretCheck(file.path, rules.added, file, opts) ?? rules.refusal ?? null;
  if (early) return fail(early);
  const path = pathCheck(file, opts);
  if (!path.ok) return path;
  const p = path.value;
  const late = unicodeCheck(p, rules.added) ?? sizeCheck(p, file.bytes, opts);
  if (late) return fail(late);
  const decoded = decodeInput(p, file.bytes);
  if (!decoded.ok) return decoded;
  const d = decoded.value;
  if (d === null && !rules.mayCreate) return fail(missingFailure(p, opts));
  const refused =
    (d === null ? null : (rules.existing?.(p, d.text) ?? null)) ??
    (rules.refuseNotebook ? notebookRefusal(p) : null) ??
    // Creating a file needs no read.
    (d === null ? null : readCheck(p, d.text, opts, rules.partialReadOk));
  if (refused) return fail(refused);
  return ok({ path: p, decoded: d });
}
