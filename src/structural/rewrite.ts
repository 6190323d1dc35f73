// One rule over one parsed file: its matches, and the edits its fix makes.
//
// Every match is rewritten, matches inside another match's metavariables included: a metavariable's
// value is the source with the matches inside it already rewritten (innermost first, memoised), and
// the enclosing fix is built from those values. A match the fix drops (inside the match but in no
// metavariable it uses) is not rewritten and not counted. The output is never matched again.
//
// Each match's instantiated fix is what the ast-grep CLI would write (template, metavariables,
// transforms, indentation); the layout merge (layout.ts) then keeps the source's own whitespace,
// comments and trailing commas wherever the fix does not change them.
import { mergeRegions, toChanges } from '../core/edit/regions.js';
import { indentAfterFirst, plain, reindent, type Lines } from './indent.js';
import type { Lexicon } from './languages.js';
import { mergeLayout, type TextEdit } from './layout.js';
import type { SgNode } from './napi.js';
import type { CompiledRule, Expansion, Fix } from './rule.js';
import { lineIndent } from './template.js';
import { computeTransforms, type VarRef } from './transform.js';
import { frozenBreaks, insideLeaf, onlyComments, spanOf, type Span } from './tree.js';

export interface RuleOutcome {
  /** Matches found (distinct ranges), or rewritten when the rule has a fix. */
  readonly matches: number;
  /** Edits in the text's own offsets, ascending and disjoint. */
  readonly edits: readonly TextEdit[];
}

interface Entry extends Span {
  readonly node: SgNode;
  /** Set once rendered (memoised: a match inside a metavariable used twice is rendered once). */
  rendered?: string;
  edits?: TextEdit[];
}

export function runRule(root: SgNode, text: string, rule: CompiledRule, lexicon: Lexicon): RuleOutcome {
  const found = root.findAll(rule.config as never);
  const fix = rule.fix;
  const entries: Entry[] = [];
  for (const node of found) {
    const s = spanOf(node);
    const span = fix ? expanded(node, s, fix) : s;
    entries.push({ node, start: span.start, end: span.end });
  }
  // Outermost first: by start, the longer first; findAll's pre-order breaks ties.
  entries.sort((a, b) => a.start - b.start || b.end - a.end);
  const unique = entries.filter((e, i) => i === 0 || e.start !== (entries[i - 1] as Entry).start || e.end !== (entries[i - 1] as Entry).end);
  if (!fix) return { matches: unique.length, edits: [] };
  return new Rewriter(text, unique, rule, fix, lexicon).run();
}

/** The replaced range: the match, widened by expandStart/expandEnd to the neighbours they match. */
function expanded(node: SgNode, span: Span, fix: Fix): Span {
  let { start, end } = span;
  if (fix.expandStart) start = widen(node, fix.expandStart, 'start') ?? start;
  if (fix.expandEnd) end = widen(node, fix.expandEnd, 'end') ?? end;
  return { start, end };
}

function widen(node: SgNode, e: Expansion, side: 'start' | 'end'): number | null {
  const config = { rule: e.rule } as never;
  const pick = (n: SgNode): number => (side === 'start' ? spanOf(n).start : spanOf(n).end);
  if (e.stopBy === 'neighbor') {
    const n = side === 'start' ? node.prev() : node.next();
    return n && n.matches(config) ? pick(n) : null;
  }
  const stop = e.stopBy === 'end' ? null : ({ rule: e.stopBy } as never);
  for (const n of side === 'start' ? node.prevAll() : node.nextAll()) {
    if (n.matches(config)) return pick(n);
    if (stop && n.matches(stop)) return null;
  }
  return null;
}

class Rewriter {
  private applied = 0;

  constructor(
    private readonly text: string,
    private readonly entries: readonly Entry[],
    private readonly rule: CompiledRule,
    private readonly fix: Fix,
    private readonly lexicon: Lexicon,
  ) {}

  run(): RuleOutcome {
    const edits: TextEdit[] = [];
    let end = -1;
    for (const e of this.entries) {
      if (e.start < end) continue;
      end = e.end;
      for (const x of this.render(e).edits) edits.push(x);
    }
    return { matches: this.applied, edits };
  }

  /**
   * The match's new text and the edits (in file offsets) that turn its source into it. The matches
   * nested in the metavariables the fix uses are rewritten first; the layout merge then compares the
   * fix with the source as those inner rewrites left it, so it judges the outer fix's own changes only.
   */
  private render(e: Entry): { text: string; edits: TextEdit[] } {
    const used = new Set<Entry>();
    const F = this.instantiate(e, used);
    const S0 = this.text.slice(e.start, e.end);
    const inner: TextEdit[] = [];
    let end = -1;
    for (const m of [...used].sort((a, b) => a.start - b.start || b.end - a.end)) {
      if (m.start < end) continue;
      end = m.end;
      for (const x of m.edits ?? []) inner.push({ start: x.start - e.start, end: x.end - e.start, text: x.text });
    }
    const S1 = applyEdits(S0, inner);
    const toSource = sourceOffsets(inner);
    const query =
      (fn: (from: SgNode, a: number, b: number) => boolean, unknown: boolean) =>
      (a: number, b: number): boolean => {
        const sa = toSource(a);
        const sb = toSource(b);
        // Text an inner rewrite wrote has no node in the tree.
        if (sa === null || sb === null) return unknown;
        return fn(this.around(e, sa, sb), e.start + sa, e.start + sb);
      };
    const outer = mergeLayout(S1, F.text, F.marks, {
      lexicon: this.lexicon,
      insideLeaf: query(insideLeaf, true),
      onlyComments: query(onlyComments, false),
      pattern: this.rule.pattern,
      keepPunctuation: this.fix.expandStart === null && this.fix.expandEnd === null,
    });
    this.applied++;
    const rel = compose(S0, inner, outer);
    e.edits = rel.map((x) => ({ start: x.start + e.start, end: x.end + e.start, text: x.text }));
    e.rendered = applyEdits(S1, outer);
    return { text: e.rendered, edits: e.edits };
  }

  /** The node to search for a span of the match: the match itself, or its parent for a widened range. */
  private around(e: Entry, a: number, b: number): SgNode {
    const s = spanOf(e.node);
    if (e.start + a >= s.start && e.start + b <= s.end) return e.node;
    return e.node.parent() ?? e.node;
  }

  /** The fix for one match, as the CLI builds it, from metavariable values with nested rewrites applied. */
  private instantiate(e: Entry, used: Set<Entry>): Lines {
    const node = e.node;
    const transformed =
      this.rule.transforms.order.length > 0
        ? computeTransforms(
            this.rule.transforms,
            (v) => {
              const value = this.value(e, v, used);
              return { text: value ? value.lines.text : null, rewritten: value?.rewritten ?? false };
            },
            (name) => node.getTransformed(name),
          )
        : new Map<string, string>();
    const parts: Lines[] = [];
    for (const piece of this.fix.template.pieces) {
      if (piece.kind === 'text') {
        parts.push(plain(piece.text));
        continue;
      }
      if (piece.transformed) {
        // A transform's value has no place in the source: the CLI indents it from column 0.
        parts.push(reindent(plain(transformed.get(piece.name) ?? ''), '', piece.indent));
        continue;
      }
      const value = this.value(e, { name: piece.name, multi: piece.multi }, used);
      if (value === null) continue;
      parts.push(reindent(value.lines, lineIndent(this.text, value.start), piece.indent));
    }
    const whole = concat(parts);
    return indentAfterFirst(whole, lineIndent(this.text, e.start));
  }

  /** A metavariable's text, with the matches inside it rewritten, and the breaks inside strings frozen. */
  private value(e: Entry, v: VarRef, used: Set<Entry>): { lines: Lines; start: number; rewritten: boolean } | null {
    const nodes = v.multi ? e.node.getMultipleMatches(v.name) : [e.node.getMatch(v.name)].filter((n): n is SgNode => n !== null);
    if (nodes.length === 0) return null;
    const start = spanOf(nodes[0] as SgNode).start;
    const end = spanOf(nodes[nodes.length - 1] as SgNode).end;
    const inner = this.innerMatches(e, start, end);
    const raw = this.text.slice(start, end);
    const multiLine = raw.includes('\n');
    const frozen = multiLine ? frozenBreaks(nodes, this.text) : [];
    if (inner.length === 0) return { lines: { text: raw, frozen: new Set(frozen.map((o) => o - start)), marks: [] }, start, rewritten: false };
    // Rebuild from the source between inner matches and their rewritten text; frozen breaks move along.
    const out: string[] = [];
    const moved = new Set<number>();
    let size = 0;
    let at = start;
    const keep = (from: number, to: number) => {
      for (const o of frozen) if (o >= from && o < to) moved.add(size + o - from);
      out.push(this.text.slice(from, to));
      size += to - from;
    };
    for (const m of inner) {
      used.add(m);
      keep(at, m.start);
      const t = m.rendered ?? this.render(m).text;
      out.push(t);
      size += t.length;
      at = m.end;
    }
    keep(at, end);
    return { lines: { text: out.join(''), frozen: moved, marks: [] }, start, rewritten: true };
  }

  /** The outermost matches strictly inside `e` and within [from, to). */
  private innerMatches(e: Entry, from: number, to: number): Entry[] {
    const out: Entry[] = [];
    let end = -1;
    for (let k = firstAtOrAfter(this.entries, from); k < this.entries.length; k++) {
      const m = this.entries[k] as Entry;
      if (m.start >= to) break;
      if (m === e || m.end > to || m.start < end) continue;
      if (m.start === e.start && m.end === e.end) continue;
      if (m.start < e.start || m.end > e.end) continue;
      out.push(m);
      end = m.end;
    }
    return out;
  }
}

/** Index of the first entry starting at or after `at` (entries are sorted by start). */
function firstAtOrAfter(entries: readonly Entry[], at: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((entries[mid] as Entry).start < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function concat(parts: readonly Lines[]): Lines {
  const frozen = new Set<number>();
  const marks: number[] = [];
  let size = 0;
  for (const p of parts) {
    for (const o of p.frozen) frozen.add(size + o);
    if (size > 0) marks.push(size);
    size += p.text.length;
  }
  return { text: parts.map((p) => p.text).join(''), frozen, marks };
}

/** Edits S0 → S1 (inner) then S1 → S2 (outer), as one list of edits S0 → S2. */
function compose(S0: string, inner: readonly TextEdit[], outer: readonly TextEdit[]): TextEdit[] {
  if (inner.length === 0) return [...outer];
  const reps = (xs: readonly TextEdit[]) => xs.map((x) => ({ start: x.start, oldLength: x.end - x.start, text: x.text }));
  const regions = mergeRegions(S0, mergeRegions(S0, [], reps(inner)), reps(outer));
  return toChanges(regions).map((c) => ({ start: c.oldStart, end: c.oldEnd, text: c.text }));
}

/** Maps an offset of the text after `edits` back to the source; null inside text an edit wrote. */
function sourceOffsets(edits: readonly TextEdit[]): (at: number) => number | null {
  return (at) => {
    let shift = 0;
    for (const x of edits) {
      const newStart = x.start + shift;
      const newEnd = newStart + x.text.length;
      if (at < newStart) break;
      if (at > newStart && at < newEnd) return null;
      if (at >= newEnd) shift += x.text.length - (x.end - x.start);
      else return x.start;
    }
    return at - shift;
  };
}

/** Applies ascending, disjoint edits to a text. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  if (edits.length === 0) return text;
  const out: string[] = [];
  let at = 0;
  for (const x of edits) {
    out.push(text.slice(at, x.start), x.text);
    at = x.end;
  }
  out.push(text.slice(at));
  return out.join('');
}
