// A glob's regular expression (as picomatch makes it) as a tree, and what its shape says about cost.
// picomatch defines what a glob means, and its expression is the semantics recipes rely on; V8 runs
// that expression by backtracking, which for some shapes takes exponential time (`a/**/a/**/…` over a
// deep path, `(a+)+b`, which picomatch passes through from a glob). `backtracksBoundedly` recognises
// the shapes whose backtracking is O(n²); glob-machine.ts runs every other one as a state machine.
// Back-references and lookbehinds have no polynomial bound at all; a glob that carries one is refused.

import { ScionError } from '../errors.js';

/** A glob whose expression uses a construct that cannot be matched in bounded time: kind `bad-glob`. */
export function globSyntaxError(glob: string, what: string): ScionError {
  return new ScionError('bad-glob', `the glob ${JSON.stringify(glob)} holds ${what}, which a glob cannot use; write it with *, **, ?, [...] and {a,b} only`, {
    data: { glob },
  });
}

export type Node =
  | { readonly t: 'unit'; readonly test: (code: number) => boolean }
  | { readonly t: 'seq'; readonly items: readonly Node[] }
  | { readonly t: 'alt'; readonly alts: readonly Node[] }
  | { readonly t: 'rep'; readonly node: Node; readonly min: number; readonly max: number }
  | { readonly t: 'look'; readonly negative: boolean; readonly node: Node; readonly source: string }
  | { readonly t: 'assert'; readonly kind: '^' | '$' | 'b' | 'B' };

export const ANY: Node = { t: 'unit', test: () => true };

/** Parses the subset of JavaScript regular-expression syntax a glob's expression can hold (flag `s`). */
export class Parser {
  private i = 0;
  constructor(
    private readonly src: string,
    private readonly glob: string,
  ) {}

  parse(): Node {
    const node = this.alternation();
    if (this.i < this.src.length) throw this.refuse(`an unbalanced ")"`);
    return node;
  }

  private refuse(what: string): ScionError {
    return globSyntaxError(this.glob, what);
  }

  private alternation(): Node {
    const alts = [this.sequence()];
    while (this.src[this.i] === '|') {
      this.i++;
      alts.push(this.sequence());
    }
    return alts.length === 1 ? alts[0]! : { t: 'alt', alts };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') items.push(this.quantified(this.atom()));
    return { t: 'seq', items };
  }

  private quantified(node: Node): Node {
    let out = node;
    for (;;) {
      const c = this.src[this.i];
      let min: number;
      let max: number;
      if (c === '*' || c === '+' || c === '?') {
        this.i++;
        [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
      } else if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
        if (m === null) return out;
        this.i += m[0].length;
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      } else return out;
      // Lazy or greedy is the same question for "does it match at all".
      if (this.src[this.i] === '?') this.i++;
      out = { t: 'rep', node: out, min, max };
    }
  }

  private atom(): Node {
    const c = this.src[this.i]!;
    if (c === '(') return this.group();
    if (c === '[') return this.charClass();
    if (c === '.') {
      this.i++;
      return ANY;
    }
    if (c === '^' || c === '$') {
      this.i++;
      return { t: 'assert', kind: c };
    }
    if (c === '\\') return this.escape();
    if (c === '*' || c === '+' || c === '?') throw this.refuse(`a "${c}" with nothing to repeat`);
    this.i++;
    const code = c.charCodeAt(0);
    return { t: 'unit', test: (x) => x === code };
  }

  private group(): Node {
    const rest = this.src.slice(this.i, this.i + 4);
    let look: boolean | null = null;
    if (rest.startsWith('(?:')) this.i += 3;
    else if (rest.startsWith('(?=') || rest.startsWith('(?!')) {
      look = rest[2] === '!';
      this.i += 3;
    } else if (rest.startsWith('(?<=') || rest.startsWith('(?<!')) throw this.refuse('a lookbehind');
    else if (rest.startsWith('(?<')) {
      const end = this.src.indexOf('>', this.i);
      if (end < 0) throw this.refuse('an unfinished group name');
      this.i = end + 1;
    } else if (rest.startsWith('(?')) throw this.refuse('an unknown group');
    else this.i += 1;
    const from = this.i;
    const node = this.alternation();
    if (this.src[this.i] !== ')') throw this.refuse('an unbalanced "("');
    const source = this.src.slice(from, this.i);
    this.i++;
    return look === null ? node : { t: 'look', negative: look, node, source };
  }

  /** A class is tested by V8 itself, one code unit at a time (no backtracking in one unit). */
  private charClass(): Node {
    const start = this.i;
    let j = this.i + 1;
    if (this.src[j] === '^') j++;
    while (j < this.src.length && this.src[j] !== ']') j += this.src[j] === '\\' ? 2 : 1;
    if (j >= this.src.length) throw this.refuse('an unfinished "["');
    this.i = j + 1;
    return nativeUnit(this.src.slice(start, this.i));
  }

  private escape(): Node {
    const next = this.src[this.i + 1];
    if (next === undefined) throw this.refuse('a trailing "\\"');
    if (/[1-9]/.test(next) || next === 'k') throw this.refuse('a back-reference');
    if (next === 'b' || next === 'B') {
      this.i += 2;
      return { t: 'assert', kind: next };
    }
    if (next === 'c') throw this.refuse('a control escape');
    const m = /^\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|u\{[0-9a-fA-F]+\}|[dDwWsStnrvf0]|[^])/.exec(this.src.slice(this.i))!;
    this.i += m[0].length;
    return nativeUnit(m[0]);
  }
}

/** One code unit tested by a native expression (a class or an escape), each answer memoised. */
function nativeUnit(source: string): Node {
  const re = new RegExp(`^${source}$`, 's');
  const seen = new Map<number, boolean>();
  return {
    t: 'unit',
    test: (code) => {
      let hit = seen.get(code);
      if (hit === undefined) {
        hit = re.test(String.fromCharCode(code));
        seen.set(code, hit);
      }
      return hit;
    },
  };
}

/** Backtracking paths through a lookahead's body under which V8 itself may answer it. */
export const BOUNDED_WAYS = 1000;
/** Ways through a whole expression (besides its two repetitions' lengths) under which V8 may run it. */
const BOUNDED_BRANCHES = 64;

/** How many ways V8 can try to match `node` (Infinity with an unbounded repetition); lookaheads inside are atomic. */
export function ways(node: Node): number {
  switch (node.t) {
    case 'unit':
    case 'assert':
    case 'look':
      return 1;
    case 'seq':
      return node.items.reduce((n, item) => Math.min(Infinity, n * ways(item)), 1);
    case 'alt':
      return node.alts.reduce((n, alt) => n + ways(alt), 0);
    case 'rep': {
      if (node.max === Infinity) return Infinity;
      return repeatedWays(ways(node.node), node.min, node.max);
    }
  }
}

/**
 * Whether V8's backtracking over `root` takes O(n²) steps at most (n: the text's length): at most two
 * unbounded repetitions in all, each repeating a plain run of single characters (no alternation or
 * repetition inside it, only lookaheads of bounded cost), and at most BOUNDED_BRANCHES ways through
 * the rest. Every unbounded repetition can then be retried at O(n) lengths, and nothing else multiplies.
 */
export function backtracksBoundedly(root: Node): boolean {
  let unbounded = 0;
  const plain = (node: Node): boolean =>
    node.t === 'unit' || node.t === 'assert' || (node.t === 'look' && ways(node.node) <= BOUNDED_WAYS) || (node.t === 'seq' && node.items.every(plain));
  const walk = (node: Node, times: number): boolean => {
    switch (node.t) {
      case 'unit':
      case 'assert':
        return true;
      case 'look':
        return ways(node.node) <= BOUNDED_WAYS || walk(node.node, times);
      case 'seq':
        return node.items.every((item) => walk(item, times));
      case 'alt':
        return node.alts.every((alt) => walk(alt, times));
      case 'rep':
        if (node.max !== Infinity) return walk(node.node, times * node.max);
        unbounded += times;
        return plain(node.node);
    }
  };
  return walk(root, 1) && unbounded <= 2 && branches(root) <= BOUNDED_BRANCHES;
}

/** Like `ways`, with an unbounded repetition of a plain run counted as one way (its lengths are the n above). */
function branches(node: Node): number {
  switch (node.t) {
    case 'unit':
    case 'assert':
    case 'look':
      return 1;
    case 'seq':
      return node.items.reduce((n, item) => Math.min(Infinity, n * branches(item)), 1);
    case 'alt':
      return node.alts.reduce((n, alt) => n + branches(alt), 0);
    case 'rep': {
      const one = branches(node.node);
      return node.max === Infinity ? one : repeatedWays(one, node.min, node.max);
    }
  }
}

/** Ways through `min` to `max` copies of something with `one` ways (counting stops past BOUNDED_WAYS). */
function repeatedWays(one: number, min: number, max: number): number {
  if (one <= 1) return max - min + 1;
  let total = 0;
  for (let k = min; k <= max && total <= BOUNDED_WAYS; k++) total += one ** k;
  return total;
}
