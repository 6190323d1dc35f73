// The layout merge: what a match turns into, given the matched source S and the instantiated fix F
// (the text the ast-grep CLI would write). F decides every token; S keeps its whitespace wherever
// the two differ only in whitespace, so `console.log($$$A)` → `logger.info($$$A)` changes the callee
// and not the arguments' line breaks, indentation, trailing comma or comments.
//
// Tokens of S and F (lexer.ts) are lined up with Myers' diff. Then, gap by gap:
//   - between two tokens kept on both sides, the source's whitespace stays;
//   - beside a changed run, F's spacing is used, except that a line break the source has there stays
//     with its indentation (an argument list that was laid out one per line stays so);
//   - a deleted run that is only comments, a trailing comma before a closing bracket, or a `;`/`,`
//     closing the match that the rule's pattern does not name, is kept (a fix cannot see them);
//   - whitespace is only kept where it is layout: never inside a string the syntax tree knows
//     (checked through `insideLeaf`), never a line break outside brackets in an indentation-
//     sensitive language.
// The result is a list of small edits relative to S: the bytes between them are S's own.
import { diffArrays } from 'diff';
import type { Lexicon } from './languages.js';
import { lex, type Lexed, type Token } from './lexer.js';

export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export interface LayoutContext {
  readonly lexicon: Lexicon;
  /** Does [a, b) of S overlap the inside of one leaf of the syntax tree (a string's content)? */
  readonly insideLeaf: (a: number, b: number) => boolean;
  /** Is [a, b) of S nothing but comments and whitespace, by the syntax tree? */
  readonly onlyComments: (a: number, b: number) => boolean;
  /** The rule's top-level pattern, when it has one: punctuation it names is not kept back. */
  readonly pattern: string | null;
  /** False when the fix widens the replaced range (expandStart/expandEnd): deletions there are meant. */
  readonly keepPunctuation: boolean;
}

/** Bounds Myers on pathological inputs; past it the differing middle is replaced wholesale. */
const DIFF_TIMEOUT_MS = 2_000;

/** Tokens i of S and j of F line up; or S's [i0, i1) became F's [j0, j1) (either side may be empty). */
type Op =
  | { readonly eq: true; readonly i: number; readonly j: number }
  | { readonly eq: false; readonly i0: number; readonly i1: number; readonly j0: number; readonly j1: number };

/** `seams`: offsets in F between template text and metavariable values (no token of F crosses one). */
export function mergeLayout(S: string, F: string, seams: readonly number[], ctx: LayoutContext): TextEdit[] {
  if (S === F) return [];
  const ls = lex(S, ctx.lexicon);
  const lf = lex(F, ctx.lexicon, seams);
  return new Merge(S, F, ls, lf, ctx).run(align(ls.tokens, lf.tokens));
}

/** Tokens compare by text; comments by their words, since their inner spacing is layout too. */
const key = (t: Token): string => (t.comment ? `\u0000${t.text.split(/\s+/).join(' ')}` : t.text);

function align(a: readonly Token[], b: readonly Token[]): Op[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && key(a[pre] as Token) === key(b[pre] as Token)) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && key(a[a.length - 1 - suf] as Token) === key(b[b.length - 1 - suf] as Token)) suf++;
  const ops: Op[] = [];
  for (let k = 0; k < pre; k++) ops.push({ eq: true, i: k, j: k });
  const midA = a.slice(pre, a.length - suf).map(key);
  const midB = b.slice(pre, b.length - suf).map(key);
  let i = pre;
  let j = pre;
  const hunk = (di: number, dj: number) => {
    if (di === 0 && dj === 0) return;
    const last = ops[ops.length - 1];
    if (last && !last.eq) ops[ops.length - 1] = { eq: false, i0: last.i0, i1: i + di, j0: last.j0, j1: j + dj };
    else ops.push({ eq: false, i0: i, i1: i + di, j0: j, j1: j + dj });
    i += di;
    j += dj;
  };
  if (midA.length > 0 || midB.length > 0) {
    const changes = midA.length > 0 && midB.length > 0 ? diffArrays(midA, midB, { timeout: DIFF_TIMEOUT_MS }) : undefined;
    if (changes === undefined) hunk(midA.length, midB.length);
    else
      for (const c of changes) {
        if (c.added) hunk(0, c.count);
        else if (c.removed) hunk(c.count, 0);
        else for (let k = 0; k < c.count; k++) ops.push({ eq: true, i: i++, j: j++ });
      }
  }
  for (let k = 0; k < suf; k++) ops.push({ eq: true, i: i++, j: j++ });
  return ops;
}

const CLOSERS = new Set([')', ']', '}']);
const newlines = (s: string): number => s.split('\n').length - 1;

class Merge {
  private readonly edits: TextEdit[] = [];
  /** The gap before the next S token was already written by the op before it. */
  private gapDone = false;

  constructor(
    private readonly S: string,
    private readonly F: string,
    private readonly ls: Lexed,
    private readonly lf: Lexed,
    private readonly ctx: LayoutContext,
  ) {}

  run(ops: readonly Op[]): TextEdit[] {
    ops.forEach((op, k) => {
      const prevEq = k > 0 && (ops[k - 1] as Op).eq;
      const next = ops[k + 1];
      const nextEq = next !== undefined && next.eq;
      if (op.eq) this.equal(op.i, op.j, k === 0);
      else this.changed(op, prevEq, nextEq, k === 0, next === undefined);
    });
    this.tail(ops.length === 0 || (ops[ops.length - 1] as Op).eq);
    return this.edits;
  }

  private sTok(i: number): Token {
    return this.ls.tokens[i] as Token;
  }

  private fTok(j: number): Token {
    return this.lf.tokens[j] as Token;
  }

  /** S's gap before token i (or the trailing whitespace for i past the end). */
  private sGap(i: number): [number, number] {
    const t = this.ls.tokens[i];
    return t ? [t.wsStart, t.start] : [this.ls.trailingStart, this.S.length];
  }

  private fGap(j: number): string {
    const t = this.lf.tokens[j];
    return t ? this.F.slice(t.wsStart, t.start) : this.F.slice(this.lf.trailingStart);
  }

  private replace(start: number, end: number, text: string): void {
    if (this.S.slice(start, end) === text) return;
    const last = this.edits[this.edits.length - 1];
    if (last && last.end === start) this.edits[this.edits.length - 1] = { start: last.start, end, text: last.text + text };
    else this.edits.push({ start, end, text });
  }

  /** The whitespace for a gap that sits between the same tokens on both sides: S's when it is layout. */
  private choose(gap: [number, number], fWs: string, sDepth: number, fDepth: number): string | null {
    const sWs = this.S.slice(gap[0], gap[1]);
    if (sWs === fWs) return null;
    if (this.ctx.lexicon.indentSensitive && (sWs.includes('\n') || fWs.includes('\n')) && !(sDepth > 0 && fDepth > 0)) return fWs;
    if (this.ctx.insideLeaf(gap[0], gap[1])) return fWs;
    return null;
  }

  /**
   * A gap beside a changed token: S's whitespace there followed a token the fix replaced, so only a
   * line break of the source's (with its indentation) is layout worth keeping; otherwise F's spacing.
   */
  private chooseNear(gap: [number, number], fWs: string, sDepth: number, fDepth: number): string | null {
    const sWs = this.S.slice(gap[0], gap[1]);
    if (sWs === fWs) return null;
    if (sWs.includes('\n')) return this.choose(gap, fWs, sDepth, fDepth);
    return fWs;
  }

  private writeGap(gap: [number, number], choice: string | null): void {
    if (choice !== null) this.replace(gap[0], gap[1], choice);
  }

  private equal(i: number, j: number, first: boolean): void {
    if (this.gapDone) this.gapDone = false;
    else {
      const gap = this.sGap(i);
      const fWs = this.fGap(j);
      // Whitespace before the first token belongs to the template (the match itself starts at a token).
      this.writeGap(gap, first ? fWs : this.choose(gap, fWs, this.sTok(i).depth, this.fTok(j).depth));
    }
  }

  private changed(op: Extract<Op, { eq: false }>, prevEq: boolean, nextEq: boolean, first: boolean, last: boolean): void {
    const { i0, i1, j0, j1 } = op;
    if (j0 === j1 && this.keepsDeletion(i0, i1, prevEq, nextEq, last)) {
      // Kept as if both sides had it: its own whitespace stays, and the next gap is decided as usual.
      this.gapDone = false;
      return;
    }
    const lead = this.sGap(i0);
    const nextGap = this.sGap(i1);
    if (j0 === j1) {
      // Deleted: the run and the gaps around it become one gap, the source's when it holds a line break.
      const fWs = this.fGap(j1);
      let ws = fWs;
      if (prevEq && nextEq) {
        const a = this.S.slice(lead[0], lead[1]);
        const b = this.S.slice(nextGap[0], nextGap[1]);
        const picked: [number, number] = newlines(a) !== newlines(b) ? (newlines(a) > newlines(b) ? lead : nextGap) : a.length <= b.length ? lead : nextGap;
        ws = this.chooseNear(picked, fWs, this.sTok(i1).depth, this.fTok(j1).depth) ?? this.S.slice(picked[0], picked[1]);
      }
      this.replace(lead[0], nextGap[1], ws);
      this.gapDone = true;
      return;
    }
    const body = this.F.slice(this.fTok(j0).start, this.fTok(j1 - 1).end);
    const leadWs = this.fGap(j0);
    const trailWs = this.fGap(j1);
    if (i0 === i1) {
      // Inserted: F's whitespace around it; a line break the source had in this gap stays after it.
      const sWs = this.S.slice(nextGap[0], nextGap[1]);
      const fBreaks = leadWs.includes('\n') || trailWs.includes('\n');
      const keepBreak = nextEq && sWs.includes('\n') && !fBreaks && this.choose(nextGap, trailWs, this.sTok(i1).depth, this.fTok(j1).depth) === null;
      this.replace(nextGap[0], nextGap[1], leadWs + body + (keepBreak ? sWs : trailWs));
      this.gapDone = true;
      return;
    }
    // Replaced: F's tokens and spacing, with the source's line breaks on the outer sides.
    this.writeGap(lead, prevEq ? this.chooseNear(lead, leadWs, this.sTok(i0).depth, this.fTok(j0).depth) : leadWs);
    this.replace(this.sTok(i0).start, this.sTok(i1 - 1).end, body);
    if (nextEq) this.writeGap(nextGap, this.chooseNear(nextGap, trailWs, this.sTok(i1).depth, this.fTok(j1).depth));
    this.gapDone = nextEq;
  }

  /** Text a fix cannot see: comments, a trailing comma, the match's closing `;` its pattern did not name. */
  private keepsDeletion(i0: number, i1: number, prevEq: boolean, nextEq: boolean, last: boolean): boolean {
    const run = this.ls.tokens.slice(i0, i1);
    if (run.every((t) => t.comment)) return this.ctx.onlyComments(this.sTok(i0).start, this.sTok(i1 - 1).end);
    if (!this.ctx.keepPunctuation || run.length !== 1) return false;
    const t = run[0] as Token;
    const pattern = this.ctx.pattern?.trim() ?? null;
    if (t.text === ',' && prevEq && nextEq && CLOSERS.has(this.sTok(i1).text)) return !(pattern !== null && /,\s*[)\]}]/.test(pattern));
    if ((t.text === ';' || t.text === ',') && last && i1 === this.ls.tokens.length) return pattern !== null && !pattern.endsWith(t.text);
    return false;
  }

  /** Whitespace after the last token: the template's, which is deliberate (a fix ending in a line break). */
  private tail(lastEq: boolean): void {
    if (!lastEq && this.gapDone) return;
    const gap = this.sGap(this.ls.tokens.length);
    this.writeGap(gap, this.fGap(this.lf.tokens.length));
  }
}
