// The recipe's `replace` with `regex: true`: a JavaScript regular expression over the LF text, with
// $1-style references in the replacement, under the same uniqueness rules as a literal edit.
import { failure, fail, ok, type Result } from '../../errors.js';
import { expandReplacement } from '../edit/expand-replacement.js';
import { mergeRegions, type Region, type Replacement } from '../edit/regions.js';
import { SECRET_MARGIN, scanSecrets } from '../edit/secrets.js';
import { isMarkdown, stripTrailingWhitespace } from '../edit/whitespace.js';
import type { EngineOptions, EngineResult, FileInput } from '../types.js';
import { secretFailure } from './checks.js';
import { finish } from './finish.js';
import { prepare } from './prepare.js';
import { toMatchArray, type RegexMatch } from './regex-runner.js';
import type { DecodedFile } from '../text/decode.js';

/** Flags are JavaScript's defaults plus `g`: `^`/`$` anchor the whole text unless the pattern says otherwise. */
export function replaceRegex(file: FileInput, pattern: string, replacement: string, replaceAll: boolean, opts: EngineOptions = {}): EngineResult {
  const prepared = prepareRegex(file, pattern, replacement, opts, replaceAll);
  if (!prepared.ok) return prepared;
  const re = new RegExp(pattern, 'g');
  const matches = [...prepared.value.text.matchAll(re)].map((m) => ({ index: m.index, groups: [...m], ...(m.groups ? { named: m.groups } : {}) }));
  return applyRegexMatches(prepared.value, matches);
}

/**
 * The same, with the matching done by `match` (a worker under a deadline, see regex-runner.ts): a
 * pattern that backtracks for ever ends in the caller's `timeout` instead of hanging the process.
 */
export async function replaceRegexBounded(
  file: FileInput,
  pattern: string,
  replacement: string,
  replaceAll: boolean,
  opts: EngineOptions,
  match: (text: string) => Promise<Result<readonly RegexMatch[]>>,
): Promise<EngineResult> {
  const prepared = prepareRegex(file, pattern, replacement, opts, replaceAll);
  if (!prepared.ok) return prepared;
  const matches = await match(prepared.value.text);
  if (!matches.ok) return matches;
  return applyRegexMatches(prepared.value, matches.value);
}

interface PreparedRegex {
  readonly file: FileInput;
  readonly path: string;
  readonly decoded: DecodedFile;
  readonly text: string;
  readonly pattern: string;
  readonly replacement: string;
  readonly replaceAll: boolean;
  readonly opts: EngineOptions;
}

/** Every check that does not need the matches: the pattern, then the engine's front (prepare.ts). */
function prepareRegex(file: FileInput, pattern: string, replacement: string, opts: EngineOptions, replaceAll = false): Result<PreparedRegex> {
  try {
    new RegExp(pattern, 'g');
  } catch (e) {
    // The recipe schema checks patterns, so only a caller that skipped it gets here.
    return fail(
      failure('unsupported', `The replace pattern /${pattern}/ is not a valid regular expression: ${e instanceof Error ? e.message : String(e)}`, { pattern }),
    );
  }
  const front = prepare(file, { added: [replacement], mayCreate: false, refuseNotebook: true, partialReadOk: true }, opts);
  if (!front.ok) return front;
  const { path: p, decoded: d } = front.value;
  return ok({ file, path: p, decoded: d, text: d.text, pattern, replacement, replaceAll, opts });
}

function applyRegexMatches(prep: PreparedRegex, found: readonly RegexMatch[]): EngineResult {
  const { text, path: p, pattern, replacement, replaceAll, file, decoded: d, opts } = prep;
  const matches = found.map((m) => toMatchArray(m, text));
  if (matches.length === 0) {
    return fail(failure('not-found', `Pattern not found in ${p}.\nPattern: /${pattern}/`, { path: p, oldString: pattern }));
  }
  if (matches.length > 1 && !replaceAll) {
    return fail(
      failure(
        'not-unique',
        `Found ${matches.length} matches of the pattern in ${p}, but replace_all is false: add more context to identify one occurrence, or set ` +
          `replace_all to true.\nPattern: /${pattern}/`,
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
    const at = m.index ?? 0;
    if (out === m[0]) continue;
    pieces.push(text.slice(prev, at), out);
    reps.push({ start: at, oldLength: m[0].length, text: out });
    prev = at + m[0].length;
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
