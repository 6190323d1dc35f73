// Keeps a Markdown document under a character budget (GitHub refuses PR bodies over 65,536
// characters). The document is a list of segments; the diffs in it are what may be dropped.
// Largest diffs go first: one big diff usually holds most of the bytes, and small ones are the
// easiest to review in place. A diff shown once for many files with the same change weighs its
// length per file, so the change of 89 files outlasts a larger diff of one.

export interface DiffSegment {
  readonly diff: string;
  /** What stands in for the diff when it is left out. */
  readonly note: string;
  /** How many files the diff shows the change of (default 1). */
  readonly files?: number;
}

/** The collapsible block around a group's diffs; replaced by `empty` once all of them are out. */
export interface DiffBlock {
  readonly open: string;
  readonly close: string;
  readonly diffs: readonly DiffSegment[];
  readonly empty: string;
}

/** Text, a block of diffs, or `null` where the truncation notice goes. */
export type Segment = string | DiffBlock | null;

export interface FitOptions {
  readonly maxChars: number;
  /** The notice put at the `null` slot when diffs were left out, given how many. */
  readonly notice: (omitted: number, total: number) => string;
  /** Appended when even without diffs the text is too long and must be cut. */
  readonly cutNotice: string;
}

export function fitSegments(segments: readonly Segment[], o: FitOptions): { text: string; omitted: number } {
  const blocks = segments.filter((s): s is DiffBlock => typeof s === 'object' && s !== null);
  const all = blocks.flatMap((b) => b.diffs);
  const dropped = new Set<DiffSegment>();
  const full = join(segments, dropped, '');
  if (full.length <= o.maxChars) return { text: full, omitted: 0 };

  // Reserve room for the notice in its longest form (every diff left out).
  let total = full.length + o.notice(all.length, all.length).length;
  const state = new Map(blocks.map((b) => [b, { kept: b.diffs.length, length: blockLength(b, dropped) }]));
  const owner = new Map(blocks.flatMap((b) => b.diffs.map((d) => [d, b] as const)));
  const weight = (d: DiffSegment) => d.diff.length / Math.max(1, d.files ?? 1);
  for (const d of [...all].sort((a, b) => weight(b) - weight(a))) {
    if (total <= o.maxChars) break;
    const block = owner.get(d)!;
    const s = state.get(block)!;
    // Dropping the last diff of a block removes the block's frame too, so it may pay even when the
    // note alone is not shorter than the diff.
    const after = s.kept === 1 ? block.empty.length : s.length - d.diff.length + d.note.length;
    if (after >= s.length) continue;
    dropped.add(d);
    total -= s.length - after;
    s.kept -= 1;
    s.length = after;
  }
  if (total <= o.maxChars) return { text: join(segments, dropped, o.notice(dropped.size, all.length)), omitted: dropped.size };

  // Too long even without diffs (thousands of files, long messages): drop every diff, then cut at a
  // line and close the <details> the cut left open.
  for (const d of all) dropped.add(d);
  const text = join(segments, dropped, o.notice(all.length, all.length));
  return { text: cut(text, o.maxChars, o.cutNotice), omitted: all.length };
}

function blockLength(b: DiffBlock, dropped: ReadonlySet<DiffSegment>): number {
  return renderBlock(b, dropped).length;
}

function renderBlock(b: DiffBlock, dropped: ReadonlySet<DiffSegment>): string {
  if (b.diffs.length > 0 && b.diffs.every((d) => dropped.has(d))) return b.empty;
  return b.open + b.diffs.map((d) => (dropped.has(d) ? d.note : d.diff)).join('') + b.close;
}

function join(segments: readonly Segment[], dropped: ReadonlySet<DiffSegment>, notice: string): string {
  let out = '';
  for (const s of segments) {
    if (s === null) out += notice;
    else if (typeof s === 'string') out += s;
    else out += renderBlock(s, dropped);
  }
  return out;
}

function cut(text: string, maxChars: number, cutNotice: string): string {
  if (text.length <= maxChars) return text;
  let limit = maxChars - cutNotice.length;
  for (;;) {
    if (limit <= 0) return text.slice(0, maxChars);
    const at = text.lastIndexOf('\n', limit);
    const prefix = at <= 0 ? text.slice(0, limit) : text.slice(0, at + 1);
    const open = count(prefix, '<details>') - count(prefix, '</details>');
    const out = `${prefix}${'</details>\n'.repeat(Math.max(0, open))}${cutNotice}`;
    if (out.length <= maxChars) return out;
    limit -= out.length - maxChars;
  }
}

function count(s: string, needle: string): number {
  let n = 0;
  for (let i = s.indexOf(needle); i !== -1; i = s.indexOf(needle, i + needle.length)) n += 1;
  return n;
}
