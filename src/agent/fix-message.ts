// The first message of a fix conversation: the verify command that failed, how it ended,
// and each diagnostic with its file's lines around it in read_file's cat -n form. What is shown
// counts as read, so the model can fix a line it was shown without reading the file first.
import { decodeText } from '../core/index.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { ReadStates } from './read-state.js';
import { numbered, catLines } from './tools/cat-n.js';
import type { AgentFiles } from './types.js';
import { plural } from '../util/plural.js';

/** Lines shown before and after each diagnostic's line. */
export const CONTEXT_LINES = 4;
/** Diagnostics shown in full; the rest are counted (the model can rerun nothing, but it can read). */
export const MAX_SHOWN = 60;
const MAX_OUTPUT = 4000;

export const DEFAULT_FIX_PROMPT = 'Fix the problems the verify command reports, changing as little as possible.';

export interface FailedCommand {
  readonly command: string;
  /** Exit status; null when it was killed or could not start. */
  readonly status: number | null;
  readonly signal?: string | null;
  readonly diagnostics: readonly Diagnostic[];
  /** The end of what it printed: shown when no diagnostic could be read from it. */
  readonly output: string;
}

export function howItEnded(c: Pick<FailedCommand, 'status' | 'signal'>): string {
  if (c.status !== null) return `exited with status ${c.status}`;
  return c.signal ? `was killed by ${c.signal}` : 'could not start';
}

/** The message, with `reads` marking what it showed of each file. */
export async function fixMessage(prompt: string, failed: FailedCommand, files: AgentFiles, reads: ReadStates): Promise<string> {
  const shown = failed.diagnostics.slice(0, MAX_SHOWN);
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of shown) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);

  const blocks: string[] = [];
  for (const [file, ds] of byFile) blocks.push(await fileBlock(file, ds, files, reads));
  const more = failed.diagnostics.length - shown.length;
  const rest = more > 0 ? `\n(${plural(more, 'more problem')} not shown: fix these first.)` : '';
  const output = failed.output.trim();
  const outputBlock =
    failed.diagnostics.length === 0 && output !== ''
      ? `\nNo problem could be tied to a file of this job. The end of its output:\n<output>\n${output.slice(-MAX_OUTPUT)}\n</output>\n`
      : '';

  return (
    `Task: ${prompt}

The verify command \`${failed.command}\` ${howItEnded(failed)}. It reported ${plural(failed.diagnostics.length, 'problem')} in the files of this ` +
    `job. Each file's lines around its problems are shown below in read_file's cat -n form (line number, a tab, the line); they count as read, so you ` +
    `can edit them right away. Read more of a file, or other files of this job, with read_file, glob and grep when you need context. After you stop, ` +
    `the command runs again.
${outputBlock}
${blocks.join('\n\n')}${rest}`
  );
}

async function fileBlock(file: string, ds: readonly Diagnostic[], files: AgentFiles, reads: ReadStates): Promise<string> {
  const listed = ds.map((d) => `${d.file}:${d.line}${d.col > 0 ? `:${d.col}` : ''}: ${d.severity}${d.code ? ` ${d.code}` : ''}: ${d.message}`).join('\n');
  const guarded = files.guard(file);
  if (!guarded.ok)
    return `<diagnostics path="${file}">\n${listed}\n(This file is not among the files you may change: ${guarded.error.message})\n</diagnostics>`;
  const bytes = await files.read(guarded.value);
  const decoded = bytes === null ? null : decodeText(bytes);
  if (decoded === null || !decoded.ok) return `<diagnostics path="${file}">\n${listed}\n(The file cannot be shown: it is missing or not text.)\n</diagnostics>`;
  const text = decoded.value.text;
  const lines = catLines(text);
  const windows = mergeWindows(ds.map((d) => [Math.max(1, d.line - CONTEXT_LINES), Math.min(lines.length, d.line + CONTEXT_LINES)] as const));
  const parts: string[] = [];
  let covered = 0;
  for (const [from, to] of windows) {
    if (from > to) continue;
    if (parts.length > 0 || from > 1) parts.push('…');
    for (let n = from; n <= to; n++) parts.push(numbered(n, lines[n - 1] ?? ''));
    covered += to - from + 1;
  }
  if (windows.length > 0 && (windows[windows.length - 1]?.[1] ?? 0) < lines.length) parts.push('…');
  reads.markRead(guarded.value, text, covered < lines.length);
  return `<diagnostics path="${file}">\n${listed}\n</diagnostics>\n<lines path="${file}">\n${parts.join('\n')}\n</lines>`;
}

/** Sorted, overlapping or touching ranges joined. */
function mergeWindows(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}
