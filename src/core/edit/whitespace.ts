// Models often leave spaces at line ends; they are stripped from new_string, except in Markdown,
// where two trailing spaces are a hard line break.

export function isMarkdown(path: string): boolean {
  return /\.(md|mdx)$/i.test(path);
}

/**
 * The two forms of new_string an edit may write. Lines followed by a line break are always
 * stripped; the last piece only where the match ends a line (`atLineEnd`), because mid-line its
 * trailing space is not trailing at all (`const x = ` → `let x = `).
 */
export interface StrippedNew {
  readonly atLineEnd: string;
  readonly midLine: string;
}

export function stripTrailingWhitespace(s: string, markdown: boolean): StrippedNew {
  if (markdown) return { atLineEnd: s, midLine: s };
  const parts = s.split(/(\r\n|\n|\r)/);
  let body = '';
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i] as string;
    body += i % 2 === 0 ? part.replace(/\s+$/u, '') : part;
  }
  const last = parts[parts.length - 1] as string;
  return { atLineEnd: body + last.replace(/\s+$/u, ''), midLine: body + last };
}
