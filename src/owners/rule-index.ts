// Which rules could match a path, without trying every rule: a monorepo's CODEOWNERS has thousands of
// lines and a large change thousands of files, and testing each against each took minutes (10,000 rules
// by 30,000 paths: 6 minutes). Each rule gets a key that any path it matches must have (its first folder,
// a folder or file name somewhere, a file extension somewhere); rules without one are always tried.

/** What every path a rule matches has. */
export type IndexKey =
  | { readonly kind: 'first'; readonly value: string }
  | { readonly kind: 'segment'; readonly value: string }
  | { readonly kind: 'extension'; readonly value: string }
  | { readonly kind: 'any' };

export const ANY_KEY: IndexKey = { kind: 'any' };

const isLiteral = (s: string): boolean => s !== '' && !/[*?[\\]/.test(s);

/**
 * The key for a pattern given as segments: `rooted` when its first segment must be the path's first (else
 * it may match at any depth, after any folders). A literal segment there gives `first` or `segment`; a
 * `*` followed by a literal with a dot (`*.test.ts`) gives the `extension` some segment must have.
 */
export function keyOf(segments: readonly string[], rooted: boolean): IndexKey {
  let i = 0;
  let anywhere = !rooted;
  while (segments[i] === '**' && i < segments.length - 1) {
    anywhere = true;
    i++;
  }
  const seg = segments[i] ?? '';
  if (isLiteral(seg)) return anywhere ? { kind: 'segment', value: seg } : { kind: 'first', value: seg };
  const literal = seg.slice(1);
  if (anywhere && seg.startsWith('*') && isLiteral(literal) && literal.includes('.')) {
    return { kind: 'extension', value: literal.slice(literal.lastIndexOf('.') + 1) };
  }
  return ANY_KEY;
}

/** The part after a name's last dot, or undefined without one. */
const extensionOf = (name: string): string | undefined => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? undefined : name.slice(dot + 1);
};

export class RuleIndex {
  private readonly always: number[] = [];
  private readonly first = new Map<string, number[]>();
  private readonly segment = new Map<string, number[]>();
  private readonly extension = new Map<string, number[]>();

  /** Rules by position: `keys[i]` is rule i's key. */
  constructor(keys: readonly IndexKey[]) {
    keys.forEach((key, i) => {
      if (key.kind === 'any') this.always.push(i);
      else add(this[key.kind], key.value, i);
    });
  }

  /** Positions of the rules that could match `path`, last first (the order both hosts decide in). */
  candidates(path: string): number[] {
    const segs = path.split('/');
    const found = new Set<number>(this.always);
    for (const i of this.first.get(segs[0] as string) ?? []) found.add(i);
    for (const s of segs) {
      for (const i of this.segment.get(s) ?? []) found.add(i);
      const ext = extensionOf(s);
      if (ext !== undefined) for (const i of this.extension.get(ext) ?? []) found.add(i);
    }
    return [...found].sort((a, b) => b - a);
  }
}

function add(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [i]);
  else list.push(i);
}
