// read_file's view of a file: `cat -n` lines (number right-aligned in six columns, a tab, the line).
// Long files and long lines are cut with a note saying how to see the rest.
import { plural } from '../../util/plural.js';

export const DEFAULT_READ_LIMIT = 2000;
export const MAX_LINE_CHARS = 2000;
/** A single view never exceeds this, whatever offset/limit ask for. */
export const MAX_VIEW_CHARS = 200_000;

export interface View {
  readonly text: string;
  /** False when lines were left out or cut: the model has not seen the whole file. */
  readonly whole: boolean;
}

export function numbered(lineNo: number, line: string): string {
  return `${String(lineNo).padStart(6)}\t${line}`;
}

/** The lines of LF text as cat -n shows them: a final newline does not start another line. */
export function catLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** `offset` is a 1-based line number; `limit` a number of lines. */
export function catN(text: string, offset = 1, limit = DEFAULT_READ_LIMIT): View {
  const lines = catLines(text);
  const total = lines.length;
  if (total === 0) return { text: '(the file is empty)', whole: true };
  const start = Math.max(1, offset);
  if (start > total) {
    return { text: `(the file has only ${plural(total, 'line')}; offset ${start} is past its end)`, whole: false };
  }
  const out: string[] = [];
  let size = 0;
  let cut = false;
  let end = start - 1;
  for (let n = start; n <= total && n < start + limit; n++) {
    let line = lines[n - 1] as string;
    if (line.length > MAX_LINE_CHARS) {
      line = `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} characters]`;
      cut = true;
    }
    const row = numbered(n, line);
    if (size + row.length > MAX_VIEW_CHARS && out.length > 0) break;
    out.push(row);
    size += row.length + 1;
    end = n;
  }
  const whole = start === 1 && end === total && !cut;
  if (end < total) out.push(`[Showing lines ${start}-${end} of ${total}. Call read_file with offset ${end + 1} to read more.]`);
  else if (start > 1) out.push(`[Showing lines ${start}-${end} of ${total}.]`);
  if (cut) out.push('[Some long lines were cut: that part of the file is not shown; edit it only with text you can see.]');
  return { text: out.join('\n'), whole };
}
