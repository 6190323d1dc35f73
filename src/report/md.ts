// Markdown building blocks that survive whatever a path, branch or error message holds: pipes in
// table cells, backticks in code spans and fences, HTML-looking text in GitHub's renderer.

/** Prose: one line, with Markdown and HTML syntax shown literally. */
export function mdText(s: string, maxLength = Infinity): string {
  let t = s.replace(/\s*\r?\n\s*/g, ' ').trim();
  if (t.length > maxLength) t = `${t.slice(0, maxLength - 1)}…`;
  return t
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|~#])/g, '\\$1');
}

/**
 * An inline code span. GFM splits table rows on `|` before it sees code spans, so inside a table the
 * pipe must be escaped even there (`\|` renders as `|`); outside a table the backslash would show.
 */
export function mdCode(s: string, inTable = false): string {
  let t = s.replace(/\r?\n/g, ' ');
  if (inTable) t = t.replace(/\|/g, '\\|');
  const longest = longestBacktickRun(t);
  const ticks = '`'.repeat(longest + 1);
  // A span that starts or ends with a backtick needs a space so the fence is not read as longer.
  const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${t}${pad}${ticks}`;
}

/** A fenced code block whose fence no line of `body` can close early. */
export function mdFence(body: string, info = ''): string {
  const longest = longestBacktickRun(body);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const text = body.endsWith('\n') ? body : `${body}\n`;
  return `${fence}${info}\n${text}${fence}\n`;
}

/** Text for inside an HTML element such as `<summary>`. */
export function htmlText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function mdTable(head: readonly string[], align: readonly ('l' | 'r')[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const rule = `|${align.map((a) => (a === 'r' ? '---:' : '---')).join('|')}|`;
  return [line(head), rule, ...rows.map(line)].join('\n') + '\n';
}

function longestBacktickRun(s: string): number {
  let longest = 0;
  for (const m of s.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return longest;
}
