// A glob's regular expression, matched in polynomial time by construction. The expression is parsed
// (glob-expression.ts), and its shape decides who runs it. Where the shape bounds backtracking to O(n²)
// (two unbounded repetitions at most, of plain runs, and few alternatives: `src/**/*.ts` and nearly
// every glob a recipe holds), V8 does, at native speed. Every other expression runs as a state machine
// (Thompson's construction): each character of the path advances a set of states, each visited at most
// once per position, so a match costs O(path × pattern). Lookaheads (picomatch's dot-file rules,
// `!(…)`) are answered by V8 when their body has few ways to match, else by a sub-machine run from one
// position, its answer memoised per (lookahead, position): O(path² × pattern²) at worst.
import { ANY, backtracksBoundedly, BOUNDED_WAYS, globSyntaxError, Parser, ways, type Node } from './glob-expression.js';

export { globSyntaxError } from './glob-expression.js';

/** More states than this (a `{n,m}` nested in another) would make the machine itself the cost. */
const MAX_STATES = 100_000;

const UNIT = 0;
const SPLIT = 1;
const ASSERT = 2;
const LOOK = 3;
const MATCH = 4;

interface State {
  readonly kind: typeof UNIT | typeof SPLIT | typeof ASSERT | typeof LOOK | typeof MATCH;
  out: number;
  out2: number;
  readonly test?: (code: number) => boolean;
  readonly assert?: '^' | '$' | 'b' | 'B';
  /** LOOK: the first state of its sub-machine, and whether it is a negative lookahead. */
  readonly sub?: number;
  readonly negative?: boolean;
  /**
   * LOOK whose body has few ways to match (no unbounded repetition, at most BOUNDED_WAYS paths): V8
   * answers it at one position in bounded time, much faster than a sub-machine (picomatch puts one
   * such lookahead at every position a `**` or `*` passes, for its dot-file rule).
   */
  readonly native?: RegExp;
}

/** Thompson's construction, built back to front: each node is compiled with its continuation. */
class Builder {
  readonly states: State[] = [];
  constructor(private readonly glob: string) {}

  add(s: State): number {
    if (this.states.length >= MAX_STATES) throw globSyntaxError(this.glob, 'too many repetitions');
    this.states.push(s);
    return this.states.length - 1;
  }

  compile(node: Node, next: number): number {
    switch (node.t) {
      case 'unit':
        return this.add({ kind: UNIT, out: next, out2: -1, test: node.test });
      case 'assert':
        return this.add({ kind: ASSERT, out: next, out2: -1, assert: node.kind });
      case 'seq': {
        let at = next;
        for (let k = node.items.length - 1; k >= 0; k--) at = this.compile(node.items[k]!, at);
        return at;
      }
      case 'alt': {
        let at = this.compile(node.alts[node.alts.length - 1]!, next);
        for (let k = node.alts.length - 2; k >= 0; k--) at = this.add({ kind: SPLIT, out: this.compile(node.alts[k]!, next), out2: at });
        return at;
      }
      case 'look': {
        const sub = this.compile(node.node, this.add({ kind: MATCH, out: -1, out2: -1 }));
        const native = ways(node.node) <= BOUNDED_WAYS ? new RegExp(node.source, 'sy') : undefined;
        return this.add({ kind: LOOK, out: next, out2: -1, sub, negative: node.negative, ...(native ? { native } : {}) });
      }
      case 'rep': {
        let at = next;
        if (node.max === Infinity) {
          const loop = this.add({ kind: SPLIT, out: -1, out2: next });
          this.states[loop]!.out = this.compile(node.node, loop);
          at = loop;
        } else {
          for (let k = node.min; k < node.max; k++) at = this.add({ kind: SPLIT, out: this.compile(node.node, at), out2: next });
        }
        for (let k = 0; k < node.min; k++) at = this.compile(node.node, at);
        return at;
      }
    }
  }
}

export interface Machine {
  /** Whether the expression matches `text` (as RegExp.prototype.test with flag `s` would answer). */
  test(text: string): boolean;
}

/**
 * A test for a glob's expression (`source`, as picomatch made it; `glob` names it in errors), bounded
 * by construction. Where the expression's shape bounds V8's own backtracking to O(n²) (see
 * `backtracksBoundedly`), V8 runs it: nearly every glob a recipe holds, at native speed. Any other
 * expression runs on the state machine. Either answers as `new RegExp(source, 's').test` would.
 */
export function compileExpression(source: string, glob: string): Machine {
  const root = new Parser(source, glob).parse();
  if (backtracksBoundedly(root)) {
    const re = new RegExp(source, 's');
    return { test: (text) => re.test(text) };
  }
  return machineOf(root, glob);
}

/** The state machine for a glob's expression, whatever its shape (compileExpression picks it where it must). */
export function compileMachine(source: string, glob: string): Machine {
  return machineOf(new Parser(source, glob).parse(), glob);
}

function machineOf(root: Node, glob: string): Machine {
  const b = new Builder(glob);
  const accept = b.add({ kind: MATCH, out: -1, out2: -1 });
  // RegExp.test searches: an expression not anchored at its start may begin anywhere.
  const anchored = root.t === 'seq' && root.items[0]?.t === 'assert' && root.items[0].kind === '^';
  const start = b.compile(anchored ? root : { t: 'seq', items: [{ t: 'rep', node: ANY, min: 0, max: Infinity }, root] }, accept);
  const states = b.states;
  // Visit marks, kept across tests: each (run, position) takes a fresh generation number, so nothing is
  // cleared; and one stack for every closure, nested runs (lookaheads) working above the one they interrupt.
  const shared: Shared = { marks: new Int32Array(states.length), gen: 0, stack: new Int32Array(states.length * 2 + 16), top: 0, lists: [], depth: 0 };
  return { test: (text) => new Run(states, shared, text).from(start, 0) };
}

interface Shared {
  readonly marks: Int32Array;
  gen: number;
  stack: Int32Array;
  top: number;
  /** Two state lists per nesting depth of runs, made once. */
  readonly lists: [Int32Array, Int32Array][];
  depth: number;
}

const isWord = (code: number): boolean => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;

/**
 * One test of one text: the machine's state sets, and the lookahead answers memoised per position.
 * A lookahead's sub-machine shares no state with the machine around it, so its runs (nested inside a
 * closure of the outer one) never disturb the outer marks.
 */
class Run {
  private readonly looks = new Map<number, boolean>();

  constructor(
    private readonly states: readonly State[],
    private readonly shared: Shared,
    private readonly text: string,
  ) {}

  /** Whether a MATCH state of the machine that `start` begins is reachable from position `pos`. */
  from(start: number, pos: number): boolean {
    const sh = this.shared;
    const pair = (sh.lists[sh.depth] ??= [new Int32Array(this.states.length), new Int32Array(this.states.length)]);
    sh.depth++;
    try {
      return this.step(start, pos, pair[0], pair[1]);
    } finally {
      sh.depth--;
    }
  }

  private step(start: number, pos: number, first: Int32Array, second: Int32Array): boolean {
    let current = first;
    let next = second;
    let count = this.close(start, pos, current, 0, ++this.shared.gen);
    if (count < 0) return true;
    for (let p = pos; p < this.text.length && count > 0; p++) {
      const code = this.text.charCodeAt(p);
      const gen = ++this.shared.gen;
      let size = 0;
      for (let k = 0; k < count; k++) {
        const st = this.states[current[k]!]!;
        if (!st.test!(code)) continue;
        size = this.close(st.out, p + 1, next, size, gen);
        if (size < 0) return true;
      }
      [current, next] = [next, current];
      count = size;
    }
    return false;
  }

  /**
   * Follows every move that consumes nothing from `s` at `pos`, adding the states that consume a
   * character to `into` after its first `size`: the new size, or -1 when MATCH is reached.
   */
  private close(s: number, pos: number, into: Int32Array, size: number, gen: number): number {
    const sh = this.shared;
    const marks = sh.marks;
    const base = sh.top;
    this.push(s);
    try {
      while (sh.top > base) {
        const at = sh.stack[--sh.top]!;
        if (marks[at] === gen) continue;
        marks[at] = gen;
        const st = this.states[at]!;
        switch (st.kind) {
          case MATCH:
            return -1;
          case UNIT:
            into[size++] = at;
            break;
          case SPLIT:
            this.push(st.out2);
            this.push(st.out);
            break;
          case ASSERT:
            if (this.holds(st.assert!, pos)) this.push(st.out);
            break;
          case LOOK:
            if (this.look(at, st, pos) !== st.negative) this.push(st.out);
            break;
        }
      }
      return size;
    } finally {
      sh.top = base;
    }
  }

  private push(s: number): void {
    const sh = this.shared;
    if (sh.top === sh.stack.length) {
      const grown = new Int32Array(sh.stack.length * 2);
      grown.set(sh.stack);
      sh.stack = grown;
    }
    sh.stack[sh.top++] = s;
  }

  private look(at: number, st: State, pos: number): boolean {
    if (st.native) {
      st.native.lastIndex = pos;
      return st.native.test(this.text);
    }
    const key = at * (this.text.length + 1) + pos;
    let hit = this.looks.get(key);
    if (hit === undefined) {
      hit = this.from(st.sub!, pos);
      this.looks.set(key, hit);
    }
    return hit;
  }

  private holds(kind: '^' | '$' | 'b' | 'B', pos: number): boolean {
    if (kind === '^') return pos === 0;
    if (kind === '$') return pos === this.text.length;
    const before = pos > 0 && isWord(this.text.charCodeAt(pos - 1));
    const after = pos < this.text.length && isWord(this.text.charCodeAt(pos));
    return (before !== after) === (kind === 'b');
  }
}
