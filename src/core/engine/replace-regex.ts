// The recipe's `replace` with `regex: true`: a JavaScript regular expression over the LF text, with
// $1-style references in the replacement, under the same uniqueness rules as a literal edit.
import { failure, fail, UsageError } from '../../errors.js';
import { expandReplacement } from '../edit/expand-replacement.js';
import { mergeRegions, type Region, type Replacement } from '../edit/regions.js';
import { SECRET_MARGIN, scanSecrets } from '../edit/secrets.js';
import { isMarkdown, stripTrailingWhitespace } from '../edit/whitespace.js';
import type { EngineOptions, EngineResult, FileInput } from '../types.js';
import { decodeInput, missingFailure, notebookRefusal, pathCheck, readCheck, secretCheck, secretFailure, sizeCheck, unicodeCheck } from './checks.js';
import { finish } from './finish.js';

/** Flags are JavaScript's defaults plus `g`: `^`/`$` anchor the whole text unless the pattern says otherwise. */
export function replaceRegex(file: FileInput, pattern: string, replacement: string, replaceAll: boolean, opts: EngineOptions = {}): EngineResult {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'g');
  } catch (e) {
    // A recipe mistake, not a property of the file: nothing can run until the recipe is fixed.
    throw new UsageError(`The replace pattern /${pattern}/ is not a valid regular expression: ${e instanceof Error ? e.message : String(e)}`);
  }
  const secret = secretCheck(file.path, [replacement], file, opts);
  if (secret) return fail(secret);
  const path = pathCheck(file, opts);
  if (!path.ok) return path;
  const p = path.value;
  const late = unicodeCheck(p, [replacement]) ?? sizeCheck(p, file.bytes, opts);
  if (late) return fail(late);
  const decoded = decodeInput(p, file.bytes);
  if (!decoded.ok) return decoded;
  const d = decoded.value;
  if (d === null) return fail(missingFailure(p, opts));
  const refused = notebookRefusal(p) ?? readCheck(p, d.text, opts, true);
  if (refused) return fail(refused);

  const text = d.text;
  const matches = [...text.matchAll(re)];
  if (matches.length === 0) {
    return fail(failure('not-found', `Pattern not found in ${p}.\nPattern: /${pattern}/`, { path: p, oldString: pattern }));
  }
  if (matches.length > 1 && !replaceAll) {
    return fail(
      failure(
        'not-unique',
        `Found ${matches.length} matches of the pattern in ${p}, but replace_all is false: add more context to identify one occurrence, or set replace_all to true.\nPattern: /${pattern}/`,
        { path: p, count: matches.length, oldString: pattern },
      ),
    );
  }

  const template = stripTrailingWhitespace(replacement, isMarkdown(p)).atLineEnd;
  const pieces: string[] = [];
  const reps: Replacement[] = [];
  let prev = 0;
  for (const m of matches) {
    const out = expandReplacement(template, m, text);
    if (out === m[0]) continue;
    pieces.push(text.slice(prev, m.index), out);
    reps.push({ start: m.index, oldLength: m[0].length, text: out });
    prev = m.index + m[0].length;
  }
  if (reps.length === 0) {
    return fail(failure('no-op', `The replacement changes nothing in ${p}: every match already reads as its replacement.`, { path: p }));
  }
  pieces.push(text.slice(prev));
  const newText = pieces.join('');
  const regions = mergeRegions(text, [], reps);
  // $1 can move text around: look for credentials the replacement assembled, not just its literal part.
  const hit = addedSecret(text, newText, regions);
  if (hit) return fail(secretFailure(p, hit));
  return finish({ path: p, file, decoded: d, result: { regions } }, opts);
}

function addedSecret(oldText: string, newText: string, regions: readonly Region[]): string | null {
  let from = -1;
  let to = -1;
  const scan = (): string | null => {
    for (const hit of scanSecrets(newText.slice(from, to))) if (!oldText.includes(hit.text)) return hit.name;
    return null;
  };
  for (const r of regions) {
    const start = Math.max(0, r.start - SECRET_MARGIN);
    const end = Math.min(newText.length, r.end + SECRET_MARGIN);
    if (from !== -1 && start <= to) {
      to = end;
      continue;
    }
    if (from !== -1) {
      const name = scan();
      if (name) return name;
    }
    from = start;
    to = end;
  }
  return from === -1 ? null : scan();
}
