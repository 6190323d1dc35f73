// Indentation of multi-line text moved into a fix, as the ast-grep CLI does it: a captured value is
// de-indented from where it stood in the source and re-indented to where the template puts it; the
// whole fix is then indented to the line of the match. Two departures, both to keep bytes:
//   - a line that starts inside a multi-line string (or template literal) is never touched: its
//     leading blanks are content, not layout;
//   - blank lines stay blank (the CLI pads them with trailing spaces).

/** Text with the offsets of the line breaks whose next line must keep its leading blanks. */
export interface Lines {
  readonly text: string;
  /** Offsets into `text` of '\n' characters that end inside a string: the line after them is content. */
  readonly frozen: ReadonlySet<number>;
  /** Offsets of seams (between template text and a value), carried through re-indentation. */
  readonly marks: readonly number[];
}

export const plain = (text: string): Lines => ({ text, frozen: new Set(), marks: [] });

/** Moves the lines after the first from indentation `from` to `to`. */
export function reindent(value: Lines, from: string, to: string): Lines {
  if (from === to || !value.text.includes('\n')) return value;
  if (from.startsWith(to)) {
    const cut = from.slice(to.length);
    // The CLI strips from every line, the first included (which starts at a node, so never matches).
    return mapLines(value, (line) => (line.startsWith(cut) ? line.slice(cut.length) : line));
  }
  if (to.startsWith(from)) {
    const add = to.slice(from.length);
    return mapLines(value, (line, first) => (first || line === '' ? line : add + line));
  }
  return mapLines(value, (line, first) => (!first && line.startsWith(from) ? to + line.slice(from.length) : line));
}

/** Adds `indent` before every non-blank line after the first. */
export function indentAfterFirst(value: Lines, indent: string): Lines {
  if (indent === '' || !value.text.includes('\n')) return value;
  return mapLines(value, (line, first) => (first || line === '' ? line : indent + line));
}

/**
 * Rewrites each line (frozen ones excepted), keeping track of where the frozen breaks and the marks
 * move to. Every rewrite here changes a line's leading blanks only, so a mark moves with its line's
 * change in length (clamped to the line start when the blanks it sat in were removed).
 */
function mapLines(value: Lines, fn: (line: string, first: boolean) => string): Lines {
  const { text, frozen, marks } = value;
  const out: string[] = [];
  const moved = new Set<number>();
  const newMarks: number[] = [];
  let m = 0;
  let size = 0;
  let start = 0;
  let first = true;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const lineEnd = nl === -1 ? text.length : nl;
    const line = text.slice(start, lineEnd);
    const keep = !first && frozen.has(start - 1);
    const next = keep ? line : fn(line, first);
    const delta = next.length - line.length;
    while (m < marks.length && (marks[m] as number) <= lineEnd) {
      newMarks.push(size + Math.max(0, (marks[m] as number) - start + delta));
      m++;
    }
    out.push(next);
    size += next.length;
    if (nl === -1) break;
    if (frozen.has(nl)) moved.add(size);
    out.push('\n');
    size += 1;
    start = nl + 1;
    first = false;
  }
  return { text: out.join(''), frozen: moved, marks: newMarks };
}
