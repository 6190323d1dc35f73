// Syntax highlighting for the terminal: highlight.js grammars through lowlight, which gives a tree of
// scopes (keyword, string, title, …) instead of HTML. Loaded only when a coloured diff is drawn, and
// only the grammars of the files in it: highlight.js's core with one grammar costs tens of
// milliseconds and some megabytes, which `plan` without colour never pays.
import type { ElementContent, Root } from 'hast';
import type { LanguageFn } from 'highlight.js';

/** A run of text and the innermost highlight.js scope it is in (`keyword`, `title.function`, …); null outside any. */
export interface Token {
  readonly text: string;
  readonly scope: string | null;
}

export interface Highlighter {
  /** `text` (lines joined by '\n') as tokens per line; plain tokens when the language is unknown. */
  lines(language: string | undefined, text: string): Token[][];
}

type Lowlight = ReturnType<typeof import('lowlight').createLowlight>;

/** Loads lowlight and the named grammars (unknown names are skipped: their files read as plain text). */
export async function loadHighlighter(languages: Iterable<string>): Promise<Highlighter> {
  const { createLowlight } = await import('lowlight');
  const lowlight = createLowlight();
  const wanted = [...new Set(languages)].filter((l) => /^[a-z0-9-]+$/.test(l));
  const grammars = await Promise.all(
    wanted.map(async (name) => {
      try {
        const mod = (await import(`highlight.js/lib/languages/${name}`)) as { default: LanguageFn };
        return [name, mod.default] as const;
      } catch {
        return null;
      }
    }),
  );
  for (const g of grammars) if (g !== null) lowlight.register(g[0], g[1]);
  return { lines: (language, text) => tokenLines(lowlight, language, text) };
}

/** A highlighter that knows no language: every line one plain token. */
export const PLAIN_HIGHLIGHTER: Highlighter = { lines: (_language, text) => text.split('\n').map((t) => (t === '' ? [] : [{ text: t, scope: null }])) };

function tokenLines(lowlight: Lowlight, language: string | undefined, text: string): Token[][] {
  if (language === undefined || !lowlight.registered(language)) return PLAIN_HIGHLIGHTER.lines(undefined, text);
  let tree: Root;
  try {
    tree = lowlight.highlight(language, text);
  } catch {
    return PLAIN_HIGHLIGHTER.lines(undefined, text);
  }
  const lines: Token[][] = [[]];
  const walk = (nodes: readonly ElementContent[], scope: string | null) => {
    for (const node of nodes) {
      if (node.type === 'text') {
        const parts = node.value.split('\n');
        parts.forEach((part, i) => {
          if (i > 0) lines.push([]);
          if (part !== '') lines[lines.length - 1]!.push({ text: part, scope });
        });
      } else if (node.type === 'element') walk(node.children, scopeOf(node.properties['className']) ?? scope);
    }
  };
  walk(tree.children as ElementContent[], null);
  return lines;
}

/** ['hljs-title', 'function_'] → 'title.function'. */
function scopeOf(className: unknown): string | null {
  if (!Array.isArray(className) || className.length === 0) return null;
  const names = className.map((c) => String(c).replace(/^hljs-/, '').replace(/_+$/, ''));
  return names.join('.');
}
