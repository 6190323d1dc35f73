// Syntax highlighting for the terminal: highlight.js's core and the grammars of the files in the diff,
// loaded only when a coloured diff is drawn. highlight.js gives HTML (`<span class="hljs-keyword">`),
// read back here into tokens with their scope. (lowlight gives a tree instead, but its entry point
// imports all 190 grammars: a third of a second more than the core and the one grammar a diff needs.)
import type { HLJSApi, LanguageFn } from 'highlight.js';

/** A run of text and the innermost highlight.js scope it is in (`keyword`, `title.function`, …); null outside any. */
export interface Token {
  readonly text: string;
  readonly scope: string | null;
}

export interface Highlighter {
  /** `text` (lines joined by '\n') as tokens per line; plain tokens when the language is unknown. */
  lines(language: string | undefined, text: string): Token[][];
}

/** Loads highlight.js and the named grammars (a name it does not ship is skipped: those files read as plain text). */
export async function loadHighlighter(languages: Iterable<string>): Promise<Highlighter> {
  const core = ((await import('highlight.js/lib/core')) as { default: HLJSApi }).default;
  // An instance of our own: grammars registered here do not leak into another user of the module.
  const hljs = core.newInstance();
  const wanted = [...new Set(languages)].filter((l) => /^[a-z0-9-]+$/.test(l));
  const grammars = await Promise.all(
    wanted.map(async (name) => {
      try {
        return [name, ((await import(`highlight.js/lib/languages/${name}`)) as { default: LanguageFn }).default] as const;
      } catch {
        return null;
      }
    }),
  );
  for (const g of grammars) if (g !== null) hljs.registerLanguage(g[0], g[1]);
  return { lines: (language, text) => tokenLines(hljs, language, text) };
}

/** A highlighter that knows no language: every line one plain token. */
export const PLAIN_HIGHLIGHTER: Highlighter = { lines: (_language, text) => text.split('\n').map((t) => (t === '' ? [] : [{ text: t, scope: null }])) };

function tokenLines(hljs: HLJSApi, language: string | undefined, text: string): Token[][] {
  if (language === undefined || hljs.getLanguage(language) === undefined) return PLAIN_HIGHLIGHTER.lines(undefined, text);
  let html: string;
  try {
    html = hljs.highlight(text, { language, ignoreIllegals: true }).value;
  } catch {
    return PLAIN_HIGHLIGHTER.lines(undefined, text);
  }
  return readHtml(html);
}

const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };

/**
 * highlight.js's output back into tokens per line. It writes only `<span class="…">`, `</span>` and
 * text with `& < > " '` escaped, so a scan over those three is exact.
 */
export function readHtml(html: string): Token[][] {
  const lines: Token[][] = [[]];
  const scopes: (string | null)[] = [];
  for (const m of html.matchAll(/<span class="([^"]*)">|<\/span>|[^<]+/g)) {
    if (m[1] !== undefined) scopes.push(scopeOf(m[1]) ?? scopes[scopes.length - 1] ?? null);
    else if (m[0] === '</span>') scopes.pop();
    else {
      const scope = scopes[scopes.length - 1] ?? null;
      const text = m[0].includes('&') ? m[0].replace(/&(amp|lt|gt|quot|#x27|#39);/g, (e) => ENTITIES[e]!) : m[0];
      text.split('\n').forEach((part, i) => {
        if (i > 0) lines.push([]);
        if (part !== '') lines[lines.length - 1]!.push({ text: part, scope });
      });
    }
  }
  return lines;
}

const SCOPES = new Map<string, string | null>();

/** 'hljs-title function_' → 'title.function'. */
function scopeOf(className: string): string | null {
  let scope = SCOPES.get(className);
  if (scope === undefined) {
    scope = scopeName(className);
    SCOPES.set(className, scope);
  }
  return scope;
}

function scopeName(className: string): string | null {
  const names = className
    .split(' ')
    .filter((c) => c !== '')
    .map((c) => c.replace(/^hljs-/, '').replace(/_+$/, ''));
  return names.length === 0 ? null : names.join('.');
}
