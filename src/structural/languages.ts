// Which language a file is, and how its comments and indentation behave. Five languages are built
// into @ast-grep/napi; every other one comes from an `@ast-grep/lang-<name>` package (see packs.ts).
// The lexical facts here feed the layout merge (layout.ts): which text is a comment that a fix may
// not silently drop, and where a line break is syntax rather than layout.

/** The names @ast-grep/napi knows without a package, with the extensions scion reads them from. */
export const BUILTIN_LANGUAGES: Readonly<Record<string, { readonly napi: string; readonly extensions: readonly string[] }>> = {
  typescript: { napi: 'TypeScript', extensions: ['ts', 'mts', 'cts'] },
  tsx: { napi: 'Tsx', extensions: ['tsx'] },
  javascript: { napi: 'JavaScript', extensions: ['js', 'mjs', 'cjs', 'jsx'] },
  html: { napi: 'Html', extensions: ['html', 'htm'] },
  css: { napi: 'Css', extensions: ['css'] },
};

/** Other spellings people (and ast-grep rule files) use for a language. */
const ALIASES: Readonly<Record<string, string>> = {
  ts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  py: 'python',
  rs: 'rust',
  golang: 'go',
  rb: 'ruby',
  kt: 'kotlin',
  cs: 'csharp',
  'c#': 'csharp',
  'c++': 'cpp',
  sh: 'bash',
  yml: 'yaml',
  hs: 'haskell',
  ex: 'elixir',
};

/** The canonical, lower-case name of a language as a rule or step spells it. */
export function canonicalLanguage(name: string): string {
  const lower = name.trim().toLowerCase();
  return ALIASES[lower] ?? lower;
}

export function isBuiltin(language: string): boolean {
  return Object.hasOwn(BUILTIN_LANGUAGES, language);
}

/** The extension of a path, lower-case, without the dot ('' when it has none). */
export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** How the generic lexer of layout.ts reads a language: comment syntax and whether line breaks are syntax. */
export interface Lexicon {
  readonly lineComments: readonly string[];
  readonly blockComments: readonly (readonly [string, string])[];
  /** Line breaks and indentation outside brackets carry meaning (Python, YAML, Haskell…). */
  readonly indentSensitive: boolean;
  /** Python-style triple-quoted strings. */
  readonly tripleQuotes: boolean;
}

const C_LIKE: Lexicon = { lineComments: ['//'], blockComments: [['/*', '*/']], indentSensitive: false, tripleQuotes: false };
const HASH: Lexicon = { lineComments: ['#'], blockComments: [], indentSensitive: false, tripleQuotes: false };

const LEXICONS: Readonly<Record<string, Lexicon>> = {
  javascript: C_LIKE,
  typescript: C_LIKE,
  tsx: C_LIKE,
  css: { lineComments: [], blockComments: [['/*', '*/']], indentSensitive: false, tripleQuotes: false },
  html: { lineComments: [], blockComments: [['<!--', '-->']], indentSensitive: false, tripleQuotes: false },
  python: { lineComments: ['#'], blockComments: [], indentSensitive: true, tripleQuotes: true },
  yaml: { lineComments: ['#'], blockComments: [], indentSensitive: true, tripleQuotes: false },
  haskell: { lineComments: ['--'], blockComments: [['{-', '-}']], indentSensitive: true, tripleQuotes: false },
  ruby: HASH,
  bash: HASH,
  toml: HASH,
  elixir: { ...HASH, tripleQuotes: true },
  php: { lineComments: ['//', '#'], blockComments: [['/*', '*/']], indentSensitive: false, tripleQuotes: false },
  lua: { lineComments: ['--'], blockComments: [['--[[', ']]']], indentSensitive: false, tripleQuotes: false },
  sql: { lineComments: ['--'], blockComments: [['/*', '*/']], indentSensitive: false, tripleQuotes: false },
};

/**
 * C-like comments are the safe guess for the many brace languages (go, rust, java, kotlin, c, cpp,
 * csharp, swift, scala, dart). A wrong guess costs layout only: comments are confirmed against the
 * syntax tree before a deletion is undone.
 */
export function lexiconOf(language: string): Lexicon {
  return LEXICONS[language] ?? C_LIKE;
}
