// The `convert` transform: a word split that follows ast-grep's own (separators, lower→upper case
// changes, and "XMLHttp" → "XML" + "Http"), then a join in the target case.

export const STRING_CASES = ['lowerCase', 'upperCase', 'capitalize', 'camelCase', 'snakeCase', 'kebabCase', 'pascalCase'] as const;
export type StringCase = (typeof STRING_CASES)[number];

export const SEPARATORS = ['caseChange', 'dash', 'dot', 'slash', 'space', 'underscore'] as const;
export type Separator = (typeof SEPARATORS)[number];

const SEPARATOR_CHARS: Readonly<Record<Exclude<Separator, 'caseChange'>, string>> = { dash: '-', dot: '.', slash: '/', space: ' ', underscore: '_' };

const isUpper = (c: string): boolean => /\p{Uppercase}/u.test(c);
const isLower = (c: string): boolean => /\p{Lowercase}/u.test(c);

function capitalize(s: string): string {
  const first = s.codePointAt(0);
  if (first === undefined) return s;
  const c = String.fromCodePoint(first);
  return c.toUpperCase() + s.slice(c.length);
}

export function convertCase(s: string, to: StringCase, separatedBy?: readonly Separator[]): string {
  switch (to) {
    case 'lowerCase':
      return s.toLowerCase();
    case 'upperCase':
      return s.toUpperCase();
    case 'capitalize':
      return capitalize(s);
    case 'camelCase':
      return split(s, separatedBy)
        .map((w, i) => (i === 0 ? w.toLowerCase() : capitalize(w)))
        .join('');
    case 'snakeCase':
      return split(s, separatedBy)
        .map((w) => w.toLowerCase())
        .join('_');
    case 'kebabCase':
      return split(s, separatedBy)
        .map((w) => w.toLowerCase())
        .join('-');
    case 'pascalCase':
      return split(s, separatedBy).map(capitalize).join('');
  }
}

type State = { kind: 'lower' } | { kind: 'oneUpper' } | { kind: 'multiUpper'; last: string } | { kind: 'ignoreCase' };

/** Words of `s`, split at the separators (all of them when none are named). Empty words are dropped. */
export function split(s: string, separatedBy?: readonly Separator[]): string[] {
  const delimiters: string[] = [];
  let state: State;
  if (separatedBy === undefined) {
    delimiters.push('-', '.', '/', ' ', '_');
    state = { kind: 'lower' };
  } else {
    state = { kind: 'ignoreCase' };
    for (const sep of separatedBy) {
      if (sep === 'caseChange') state = { kind: 'lower' };
      else delimiters.push(SEPARATOR_CHARS[sep]);
    }
  }
  const words: string[] = [];
  let left = 0;
  let right = 0;
  const emit = (from: number, to: number) => {
    if (from !== to) words.push(s.slice(from, to));
  };
  for (const c of s) {
    if (delimiters.includes(c)) {
      emit(left, right);
      left = right + 1;
      right = left;
      if (state.kind !== 'ignoreCase') state = { kind: 'lower' };
      continue;
    }
    if (state.kind === 'lower' && isUpper(c)) {
      emit(left, right);
      left = right;
      right = left + c.length;
      state = { kind: 'oneUpper' };
      continue;
    }
    if (state.kind === 'multiUpper' && isLower(c)) {
      const newLeft = right - state.last.length;
      emit(left, newLeft);
      left = newLeft;
      right += c.length;
      state = { kind: 'lower' };
      continue;
    }
    right += c.length;
    if (state.kind === 'ignoreCase') continue;
    if (isLower(c)) state = { kind: 'lower' };
    else if (state.kind === 'lower') state = { kind: 'oneUpper' };
    else state = { kind: 'multiUpper', last: c };
  }
  if (left < right && right <= s.length) emit(left, right);
  return words;
}
