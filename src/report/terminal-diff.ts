// `scion plan`'s diffs for a person at a terminal: each hunk with an old/new line-number gutter, the
// code coloured by its language, the words that changed inside a `-`/`+` pair emphasised, long lines
// wrapped to the terminal's width (the gutter dropped when the terminal is too narrow for it), and a
// big diff (a lock file, a 5,000-line change) cut with a line saying how much was left out.
// Without colour and off a terminal the text is plain and unwrapped, ready for a file or a pipe.
import { visible } from './ansi.js';
import { bigDiff, encodingNote } from './big-diff.js';
import { columns, encodeRow, wrapSegs, type Seg } from './diff-rows.js';
import { diffStyles, merge, PLAIN, syntaxStyle, themeFromEnv, type DiffStyles, type DiffTheme, type Style } from './diff-theme.js';
// highlight.ts imports highlight.js and the grammars itself, only when loadHighlighter is called.
import { loadHighlighter, PLAIN_HIGHLIGHTER, type Highlighter, type Token } from './highlight.js';
import { languageOf } from './languages.js';
import { hunkHeader } from './unified.js';
import { changedRanges, linePairs, type Range } from './word-diff.js';
import { num, plural } from '../util/plural.js';
import type { FileReport } from '../model/types.js';
import type { Hunk } from '../core/types.js';

export interface PlanDiffOptions {
  readonly color: boolean;
  /** The terminal's width; undefined off a terminal (no wrapping). */
  readonly width?: number;
  /** Where the colour depth and a light background are read from (TERM, COLORTERM, COLORFGBG, FORCE_COLOR). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Syntax colours; without one, coloured diffs have only the red/green and the changed words. */
  readonly highlighter?: Highlighter;
}

/** A terminal narrower than the gutter plus this many columns gets no gutter. */
export const MIN_CONTENT = 20;
/** A line wraps to at most this many rows; the rest is cut with a note saying how much. */
export const MAX_ROWS_PER_LINE = 10;
const TAB = 4;

/**
 * Loads what a coloured diff of `files` needs (the highlighter and their grammars, only when colour
 * is on) and returns the renderer, to call once per job.
 */
export async function planDiffRenderer(files: readonly FileReport[], o: PlanDiffOptions): Promise<(files: readonly FileReport[]) => string> {
  let highlighter = o.highlighter;
  if (o.color && highlighter === undefined) {
    const languages = new Set<string>();
    for (const f of files) {
      const lang = languageOf(f.path, firstLineOf(f));
      if (lang !== undefined && bigDiff(f)?.shown !== 0) languages.add(lang);
    }
    highlighter = languages.size === 0 ? PLAIN_HIGHLIGHTER : await loadHighlighter(languages);
  }
  const opts = { ...o, ...(highlighter ? { highlighter } : {}) };
  return (fs) => renderPlanDiff(fs, opts);
}

/** Unified diffs with an old/new line-number gutter, one file after another. */
export function renderPlanDiff(files: readonly FileReport[], o: PlanDiffOptions): string {
  const theme = themeFromEnv(o.env ?? {});
  const ctx: Ctx = { o, theme, st: diffStyles(theme), hl: o.highlighter ?? PLAIN_HIGHLIGHTER, tabs: o.color || o.width !== undefined };
  return files.map((f) => fileDiff(f, ctx)).join('\n');
}

interface Ctx {
  readonly o: PlanDiffOptions;
  readonly theme: DiffTheme;
  readonly st: DiffStyles;
  readonly hl: Highlighter;
  /** Expand tabs (to measure widths, or to show a changed tab); plain piped text keeps its tabs. */
  readonly tabs: boolean;
}

function fileDiff(file: FileReport, c: Ctx): string {
  const { st } = c;
  const out: string[] = [];
  const line = (segs: readonly Seg[]) => out.push(...rows(segs, c));
  const what = file.created ? ' (new file)' : file.deleted ? ' (deleted)' : '';
  const note = encodingNote(file);
  line([
    { text: `${visible(file.path)}${what}${note !== null && file.hunks !== undefined ? ` (${note})` : ''}  `, style: st.header },
    { text: `+${file.added}`, style: c.o.color ? { fg: '32' } : PLAIN },
    { text: ' ', style: PLAIN },
    { text: `-${file.removed}`, style: c.o.color ? { fg: '31' } : PLAIN },
    // A structural step's count: how many matches made this diff.
    ...(file.matches === undefined ? [] : [{ text: `  (${plural(file.matches, 'match', 'matches')})`, style: st.note }]),
  ]);
  const hunks = file.hunks ?? [];
  if (hunks.length === 0) {
    line([{ text: `  (${noTextDiff(file, note)})`, style: st.note }]);
    return `${out.join('\n')}\n`;
  }
  const big = bigDiff(file);
  if (big !== null && big.shown === 0) {
    line([{ text: `  (${big.reason}: diff of ${plural(big.lines, 'line')} not shown; \`scion plan --patch\` prints it)`, style: st.note }]);
    return `${out.join('\n')}\n`;
  }
  line([{ text: `--- ${file.created ? '/dev/null' : `a/${visible(file.path)}`}`, style: st.header }]);
  line([{ text: `+++ ${file.deleted ? '/dev/null' : `b/${visible(file.path)}`}`, style: st.header }]);

  let widest = 1;
  for (const h of hunks) widest = Math.max(widest, String(h.oldStart + h.oldLines).length, String(h.newStart + h.newLines).length);
  const gutterWidth = 2 * widest + 4; // "12 12 │ "
  const gutter = c.o.width === undefined || c.o.width >= gutterWidth + MIN_CONTENT ? widest : 0;
  const lang = c.o.color ? languageOf(file.path, firstLineOf(file)) : undefined;
  let budget = big?.shown ?? Infinity;
  for (const h of hunks) {
    if (budget <= 0) break;
    line([{ text: hunkHeader(h), style: st.hunk }]);
    const shown = Math.min(h.lines.length, budget);
    out.push(...hunkRows(h, shown, lang, gutter, c));
    budget -= shown;
  }
  if (big !== null) {
    const left = big.lines - big.shown;
    const text = `… ${plural(left, 'more line')} of this diff not shown (${num(big.lines)} in all); \`scion plan --patch\` prints it all`;
    line([{ text, style: st.note }]);
  }
  return `${out.join('\n')}\n`;
}

/** The first `shown` lines of a hunk, each with its gutter, syntax colours and word marks. */
function hunkRows(whole: Hunk, shown: number, lang: string | undefined, widest: number, c: Ctx): string[] {
  // Only what is shown is highlighted: the first 100 lines of a 5,000-line hunk.
  const h = shown < whole.lines.length ? { ...whole, lines: whole.lines.slice(0, shown) } : whole;
  const texts = h.lines.map((l) => (l.endsWith('\r') ? l.slice(1, -1) : l.slice(1)));
  const tokens = c.o.color ? sideTokens(h, texts, lang, c.hl) : [];
  const marks = new Map<number, readonly Range[]>();
  if (c.o.color) {
    for (const p of linePairs(h.lines)) {
      const r = changedRanges(texts[p.del]!, texts[p.add]!);
      if (r === null) continue;
      marks.set(p.del, r.old);
      marks.set(p.add, r.new);
    }
  }
  const out: string[] = [];
  const blank = ' '.repeat(widest);
  const pad = (k: number | null) => (k === null ? blank : String(k).padStart(widest));
  const gut = (o: number | null, n: number | null): Seg | null => (widest === 0 ? null : { text: `${pad(o)} ${pad(n)} │ `, style: c.st.gutter });
  let oldNo = h.oldStart;
  let newNo = h.newStart;
  for (let i = 0; i < shown; i++) {
    const mark = h.lines[i]![0];
    if (mark === '\\') {
      out.push(...diffLine(gut(null, null), { text: '\\', style: c.st.note }, [{ text: texts[i]!, style: c.st.note }], null, c));
      continue;
    }
    const kind = mark === '-' ? 'del' : mark === '+' ? 'add' : 'ctx';
    const g = kind === 'del' ? gut(oldNo++, null) : kind === 'add' ? gut(null, newNo++) : gut(oldNo++, newNo++);
    const markerStyle = kind === 'del' ? c.st.delMarker : kind === 'add' ? c.st.addMarker : PLAIN;
    const lineStyle = kind === 'del' ? c.st.delLine : kind === 'add' ? c.st.addLine : PLAIN;
    const content = c.o.color ? styled(tokens[i] ?? [{ text: texts[i]!, scope: null }], marks.get(i) ?? [], kind, c) : [{ text: texts[i]!, style: PLAIN }];
    out.push(...diffLine(g, { text: mark === undefined ? ' ' : mark, style: c.o.color ? markerStyle : PLAIN }, content, c.o.color ? lineStyle : null, c));
  }
  return out;
}

/**
 * Tokens for each line of the hunk. The new side (context and added lines) is highlighted as one
 * text, so a string or comment over several lines stays one; each run of removed lines as its own
 * text (highlighting the whole old side again for them would double the cost of a big plan).
 */
function sideTokens(h: Hunk, texts: readonly string[], lang: string | undefined, hl: Highlighter): Token[][] {
  const out: Token[][] = new Array(h.lines.length);
  const block = (idx: readonly number[]) => {
    if (idx.length === 0) return;
    const lines = hl.lines(lang, idx.map((i) => texts[i]).join('\n'));
    idx.forEach((i, k) => (out[i] = lines[k] ?? []));
  };
  block(h.lines.flatMap((l, i) => (l[0] === ' ' || l[0] === '+' ? [i] : [])));
  let run: number[] = [];
  h.lines.forEach((l, i) => {
    if (l[0] === '-') run.push(i);
    else if (l[0] !== '\\') {
      block(run);
      run = [];
    }
  });
  block(run);
  return out;
}

type Kind = 'del' | 'add' | 'ctx';
/** A segment of line text before it is made visible: `ws` marks a changed run of whitespace only. */
interface Piece extends Seg {
  readonly ws?: boolean;
}

/** Syntax tokens cut at the changed ranges and given their styles. */
function styled(tokens: readonly Token[], ranges: readonly Range[], kind: Kind, c: Ctx): Piece[] {
  const { st, theme } = c;
  const line = kind === 'del' ? st.delLine : kind === 'add' ? st.addLine : PLAIN;
  const word = kind === 'del' ? st.delWord : st.addWord;
  const syntax = kind === 'ctx' || st.syntaxOnChanges;
  const text = ranges.length === 0 ? '' : tokens.map((t) => t.text).join('');
  const blank = ranges.map(([s, e]) => /^\s+$/.test(text.slice(s, e)));
  const bounds = ranges.flat();
  const out: Piece[] = [];
  let at = 0;
  for (const t of tokens) {
    const base = !syntax ? line : merge(line, syntaxStyle(t.scope, theme));
    const end = at + t.text.length;
    const cuts = [at, ...bounds.filter((b) => b > at && b < end), end];
    for (let k = 0; k + 1 < cuts.length; k++) {
      const a = cuts[k]!;
      const r = ranges.findIndex(([s, e]) => a >= s && a < e);
      const piece = t.text.slice(a - at, cuts[k + 1]! - at);
      if (r === -1) out.push({ text: piece, style: base });
      else out.push({ text: piece, style: merge(base, word), ...(blank[r] ? { ws: true } : {}) });
    }
    at = end;
  }
  return out;
}

/**
 * One diff line as rows: gutter, marker, content; continuation rows get a blank gutter. Control
 * characters are shown as `\xNN`, tabs expanded, a changed run of whitespace drawn as `·` and `→`.
 */
function diffLine(gutter: Seg | null, marker: Seg, content: readonly Piece[], lineStyle: Style | null, c: Ctx): string[] {
  const segs: Seg[] = [];
  let col = 0;
  for (const p of content) {
    let text = visible(p.text);
    if (p.ws) text = text.replace(/ /g, '·');
    if (c.tabs && text.includes('\t')) {
      let s = '';
      for (const ch of text) {
        if (ch === '\t') {
          const n = TAB - (col % TAB);
          s += p.ws ? `→${' '.repeat(n - 1)}` : ' '.repeat(n);
          col += n;
        } else {
          s += ch;
          col += columns(ch);
        }
      }
      text = s;
    } else if (c.tabs) col += columns(text);
    segs.push({ text, style: p.style });
  }
  const width = c.o.width;
  if (width === undefined) return [encodeRow([...(gutter ? [gutter] : []), marker, ...segs], c.o.color)];
  // One column is left free: a row that fills the last column makes some terminals add a blank row.
  const room = width - 1 - (gutter ? columns(gutter.text) : 0) - 1;
  let wrapped = wrapSegs(segs, room);
  const out: string[] = [];
  const cont: Seg = { text: ' ', style: lineStyle ?? PLAIN };
  const blankGutter = gutter ? { text: gutter.text.replace(/[^│]/g, ' '), style: gutter.style } : null;
  let cut = 0;
  if (wrapped.length > MAX_ROWS_PER_LINE) {
    cut = wrapped.slice(MAX_ROWS_PER_LINE).reduce((n, r) => n + r.reduce((m, s) => m + columns(s.text), 0), 0);
    wrapped = wrapped.slice(0, MAX_ROWS_PER_LINE);
  }
  wrapped.forEach((row, i) => {
    const head = i === 0 ? [...(gutter ? [gutter] : []), marker] : [...(blankGutter ? [blankGutter] : []), cont];
    out.push(encodeRow([...head, ...row], c.o.color));
  });
  if (cut > 0) {
    const note = `… ${num(cut)} more columns of this line not shown`;
    for (const row of wrapSegs([{ text: note, style: c.st.note }], room)) out.push(encodeRow([...(blankGutter ? [blankGutter] : []), cont, ...row], c.o.color));
  }
  return out;
}

/** A header or note line, wrapped to the width when there is one. */
function rows(segs: readonly Seg[], c: Ctx): string[] {
  const clean = segs.map((s) => ({ text: s.text.replace(/\t/g, ' '), style: s.style }));
  if (c.o.width === undefined) return [encodeRow(clean, c.o.color)];
  return wrapSegs(clean, Math.max(1, c.o.width - 1)).map((r) => encodeRow(r, c.o.color));
}

/** What stands for the diff of a file with no hunks: why there is none. */
function noTextDiff(file: FileReport, note: string | null): string {
  if (file.hunks === undefined) return note ?? 'no text diff';
  if (file.oldMode !== undefined && !file.created && !file.deleted) return `mode ${file.oldMode} → ${file.mode ?? '100644'}`;
  return file.created || file.deleted ? 'empty file' : 'no text change';
}

/** The first line of the file as the diff shows it (for a `#!` line), when the first hunk starts at line 1. */
function firstLineOf(f: FileReport): string | undefined {
  const h = f.hunks?.[0];
  if (h === undefined || (h.newStart > 1 && h.oldStart > 1)) return undefined;
  return h.lines.find((l) => l[0] !== '-' && l[0] !== '\\')?.slice(1);
}
