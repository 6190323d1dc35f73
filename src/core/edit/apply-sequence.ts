// A sequence of edits to one file's text: in order, all or nothing, with cascade protection.
import { fail, ok, type Result } from '../../errors.js';
import type { Edit } from '../types.js';
import { cascade, changesNothing, fileExists, notFound, notUnique } from './failures.js';
import { findOldString, type OldStringMatches } from './find-old-string.js';
import { charCodeAt, findAllIn, pieceText, replaceIn, textOf, type PieceText } from './piece-text.js';
import { preserveQuoteStyle } from './quotes.js';
import type { Region, Replacement } from './regions.js';
import { isMarkdown, stripTrailingWhitespace } from './whitespace.js';

export interface SequenceOptions {
  readonly path: string;
  readonly skipAlreadyApplied: boolean;
}

export interface SequenceResult {
  /** The changed spans, with their text; outside them the result equals the input. */
  readonly regions: readonly Region[];
  readonly skipped: readonly number[];
}

export function applyEditSequence(input: string, edits: readonly Edit[], opts: SequenceOptions): Result<SequenceResult> {
  const markdown = isMarkdown(opts.path);
  let text: PieceText = pieceText(input);
  const skipped: number[] = [];
  // What earlier edits wrote: a later old_string found inside one of them would edit that new text.
  const written: string[] = [];

  for (const [i, edit] of edits.entries()) {
    const at = { path: opts.path, edit: i, of: edits.length };
    if (edit.old_string === '') {
      const whole = textOf(text);
      if (whole.trim() !== '') {
        if (opts.skipAlreadyApplied && edit.new_string !== '' && whole.includes(edit.new_string)) {
          skipped.push(i);
          continue;
        }
        return fail(fileExists(at));
      }
      const created = stripTrailingWhitespace(edit.new_string, markdown).atLineEnd;
      text = replaceIn(text, [{ start: 0, oldLength: text.length, text: created }]);
      written.push(edit.new_string);
      continue;
    }

    const probe = edit.old_string.replace(/\n+$/, '');
    const earlier = probe === '' ? -1 : written.findIndex((w) => w.includes(probe));
    if (earlier !== -1) {
      return fail(cascade(at, earlier));
    }

    const found = findOldString(text, edit.old_string, edit.new_string);
    if (found === null) {
      if (opts.skipAlreadyApplied && edit.new_string !== '' && isPresent(text, edit.new_string, markdown)) {
        skipped.push(i);
        continue;
      }
      return fail(notFound(at, edit.old_string));
    }
    const count = found.matches.length;
    if (count > 1 && edit.replace_all !== true) {
      return fail(notUnique(at, count, edit.old_string));
    }

    const applied = replaceMatches(text, found, markdown);
    if (!applied.changed) {
      return fail(changesNothing(at, edit.old_string));
    }
    text = replaceIn(text, applied.reps);
    written.push(edit.new_string);
    if (found.newString !== edit.new_string) written.push(found.newString);
  }
  return ok({ regions: text.regions, skipped });
}

/** Already applied: new_string is in the text as given, as it would have been written, or through quotes. */
function isPresent(text: PieceText, newString: string, markdown: boolean): boolean {
  const written = stripTrailingWhitespace(newString, markdown);
  return findAllIn(text, written.atLineEnd).length > 0 || findOldString(text, newString, '') !== null;
}

interface Replaced {
  readonly reps: Replacement[];
  readonly changed: boolean;
}

function replaceMatches(text: PieceText, found: OldStringMatches, markdown: boolean): Replaced {
  const { oldString, newString } = found;
  const stripped = stripTrailingWhitespace(newString, markdown);
  // Deleting a whole line should not leave it blank: take the newline after old_string along.
  const takeNewline = newString === '' && !oldString.endsWith('\n');
  const styled = new Map<string, { atLineEnd: string; midLine: string }>();
  const forms = (actual: string): { atLineEnd: string; midLine: string } => {
    if (!found.viaQuotes) return stripped;
    let f = styled.get(actual);
    if (f === undefined) {
      f = { atLineEnd: preserveQuoteStyle(oldString, actual, stripped.atLineEnd), midLine: preserveQuoteStyle(oldString, actual, stripped.midLine) };
      styled.set(actual, f);
    }
    return f;
  };

  const reps: Replacement[] = [];
  let changed = false;
  const { matches } = found;
  for (let k = 0; k < matches.length; k++) {
    const m = matches[k] as (typeof matches)[number];
    let length = m.actual.length;
    const after = m.index + length;
    const next = after < text.length ? charCodeAt(text, after) : -1;
    if (takeNewline && next === 10 && matches[k + 1]?.index !== after) length++;
    const f = forms(m.actual);
    const replacement = next === -1 || next === 10 || next === 13 ? f.atLineEnd : f.midLine;
    if (!changed && (length !== m.actual.length || replacement !== m.actual)) changed = true;
    reps.push({ start: m.index, oldLength: length, text: replacement });
  }
  return { reps, changed };
}
