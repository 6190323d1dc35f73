// A refusal should teach: say what was wrong, show where the text really is, say what to do next.
// These add the file-specific part (closest lines, match positions) to the engine's message.
import { numbered, catLines } from './cat-n.js';
import { pluralWord } from '../../util/plural.js';

const LINE_PREFIX = /^\s*\d+\t/m;
// The engine matches through curly quotes; so must the positions we report.
const normalizeQuotes = (s: string): string => s.replace(/[\u2018\u2019]/g, "'").replace(/[\u201C\u201D]/g, '"');
const MAX_SHOWN = 10;

/** old_string copied with read_file's `  12\t` prefixes: the commonest reason for a miss. */
export function prefixHint(oldString: string): string | null {
  if (!LINE_PREFIX.test(oldString)) return null;
  return (
    'old_string contains line-number prefixes from read_file output (spaces, a number, a tab). They are not part of the file: copy only the ' +
    'text after the tab.'
  );
}

/** Where the text is when only whitespace differs, else the lines most like old_string's first line. */
export function notFoundHint(text: string, oldString: string): string {
  const lines = catLines(text);
  const at = matchIgnoringWhitespace(lines, oldString);
  if (at !== null) {
    const span = Math.max(1, catLines(oldString).length);
    const shown = lines.slice(at, Math.min(at + span, at + MAX_SHOWN)).map((l, k) => numbered(at + k + 1, l));
    return `The same text exists with different whitespace or indentation at line ${at + 1}; copy it exactly as shown after the tab:\n${shown.join('\n')}`;
  }
  const closest = closestLines(lines, oldString);
  if (closest.length === 0) return 'No line of the file resembles old_string: read the file again before retrying.';
  return (
    `The closest lines in the file are:\n${closest.map((n) => numbered(n + 1, lines[n] as string)).join('\n')}\nRead the file again if needed ` +
    `and copy old_string exactly.`
  );
}

/** The 1-based line numbers where old_string starts, for a not-unique refusal. */
export function matchLines(text: string, oldString: string): number[] {
  let hay = text;
  let needle = oldString;
  if (!hay.includes(needle)) {
    hay = normalizeQuotes(text);
    needle = normalizeQuotes(oldString);
  }
  const out: number[] = [];
  if (needle === '') return out;
  let line = 1;
  let scanned = 0;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) {
    for (let k = hay.indexOf('\n', scanned); k !== -1 && k < i; k = hay.indexOf('\n', k + 1)) line++;
    scanned = i;
    out.push(line);
  }
  return out;
}

export function notUniqueHint(text: string, oldString: string): string {
  const at = matchLines(text, oldString);
  if (at.length === 0) return '';
  const lines = catLines(text);
  // Several matches on one line are listed once, with their number.
  const perLine = new Map<number, number>();
  for (const n of at) perLine.set(n, (perLine.get(n) ?? 0) + 1);
  const where = [...perLine].map(([n, k]) => (k > 1 ? `${n} (${k} times)` : `${n}`)).join(', ');
  const unique = [...perLine.keys()];
  const shown = unique.slice(0, MAX_SHOWN).map((n) => numbered(n, lines[n - 1] ?? ''));
  const more = unique.length > MAX_SHOWN ? `\n… and ${unique.length - MAX_SHOWN} more lines` : '';
  return (
    `The matches are on ${pluralWord(unique.length, 'line')} ${where}:\n${shown.join('\n')}${more}\nInclude more surrounding lines in ` +
    `old_string to pick one, or set replace_all to true to change them all.`
  );
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

function matchIgnoringWhitespace(lines: readonly string[], oldString: string): number | null {
  const want = catLines(oldString).map(squash);
  while (want.length > 0 && want[0] === '') want.shift();
  while (want.length > 0 && want[want.length - 1] === '') want.pop();
  if (want.length === 0) return null;
  for (let i = 0; i + want.length <= lines.length; i++) {
    if (want.every((w, k) => squash(lines[i + k] as string) === w)) return i;
  }
  return null;
}

const tokens = (s: string): Set<string> => new Set(s.match(/[\p{L}\p{N}_$]+|[^\s\p{L}\p{N}_$]/gu) ?? []);

/** Up to three 0-based line indexes sharing the most tokens with old_string's first non-blank line. */
function closestLines(lines: readonly string[], oldString: string): number[] {
  const first =
    oldString
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.replace(LINE_PREFIX, '') ?? '';
  const want = tokens(first);
  if (want.size === 0) return [];
  const scored: [number, number][] = [];
  lines.forEach((line, i) => {
    let score = 0;
    for (const t of tokens(line)) if (want.has(t)) score += t.length > 1 ? 2 : 1;
    if (score > 0) scored.push([score, i]);
  });
  // A line sharing only punctuation is no hint.
  const best = scored.filter(([s]) => s >= 2).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  return best
    .slice(0, 3)
    .map(([, i]) => i)
    .sort((a, b) => a - b);
}
