// The colours of a diff in the terminal. A removed or added line has a dark (or, on a light terminal,
// pale) red or green background with the code's syntax colours on top, and the words that changed
// inside it a stronger background. A terminal that may only have the 16 basic colours gets no
// backgrounds: removed and added lines in red and green, changed words in reverse video.
// Syntax colours avoid red and green, which mean "removed" and "added" here.

/** One SGR state: what a run of text looks like. Codes are SGR parameters ('35', '48;5;52'). */
export interface Style {
  readonly fg?: string;
  readonly bg?: string;
  readonly bold?: boolean;
  readonly dim?: boolean;
  readonly italic?: boolean;
  readonly reverse?: boolean;
}

export const PLAIN: Style = {};

export interface DiffTheme {
  readonly depth: 'basic' | '256';
  readonly light: boolean;
}

export interface DiffStyles {
  readonly gutter: Style;
  readonly header: Style;
  readonly hunk: Style;
  readonly note: Style;
  readonly delMarker: Style;
  readonly addMarker: Style;
  /** A removed / added line: laid under (256 colours) or instead of (basic) the syntax colours. */
  readonly delLine: Style;
  readonly addLine: Style;
  readonly delWord: Style;
  readonly addWord: Style;
  /** Whether removed and added lines keep their syntax colours. */
  readonly syntaxOnChanges: boolean;
}

/**
 * The terminal's colour depth and background, from the environment as terminals set it:
 * FORCE_COLOR=2/3, COLORTERM, a TERM or TERM_PROGRAM known for 256 colours; COLORFGBG for a light
 * background (its last field 7 or 15).
 */
export function themeFromEnv(env: Readonly<Record<string, string | undefined>>): DiffTheme {
  const force = env['FORCE_COLOR'];
  const term = env['TERM'] ?? '';
  const rich =
    force === '2' ||
    force === '3' ||
    /^(truecolor|24bit)$/i.test(env['COLORTERM'] ?? '') ||
    /256|truecolor|direct|kitty|alacritty|wezterm|ghostty|foot/i.test(term) ||
    /^(iTerm\.app|Apple_Terminal|vscode|WezTerm|ghostty|Hyper|tmux)$/.test(env['TERM_PROGRAM'] ?? '') ||
    env['WT_SESSION'] !== undefined;
  const bg = (env['COLORFGBG'] ?? '').split(';').pop();
  return { depth: rich && force !== '1' ? '256' : 'basic', light: bg === '7' || bg === '15' };
}

export function diffStyles(theme: DiffTheme): DiffStyles {
  const common = { gutter: { dim: true }, header: { bold: true }, hunk: { fg: '36' }, note: { dim: true } };
  if (theme.depth === 'basic') {
    return {
      ...common,
      delMarker: { fg: '31' },
      addMarker: { fg: '32' },
      delLine: { fg: '31' },
      addLine: { fg: '32' },
      delWord: { fg: '31', reverse: true },
      addWord: { fg: '32', reverse: true },
      syntaxOnChanges: false,
    };
  }
  const bg = theme.light ? { del: '224', delWord: '217', add: '194', addWord: '157' } : { del: '52', delWord: '124', add: '22', addWord: '28' };
  return {
    ...common,
    delMarker: { fg: '31', bold: true, bg: `48;5;${bg.del}` },
    addMarker: { fg: '32', bold: true, bg: `48;5;${bg.add}` },
    delLine: { bg: `48;5;${bg.del}` },
    addLine: { bg: `48;5;${bg.add}` },
    delWord: { bg: `48;5;${bg.delWord}`, bold: true },
    addWord: { bg: `48;5;${bg.addWord}`, bold: true },
    syntaxOnChanges: true,
  };
}

const SYNTAX = new Map<string, Style>();

/**
 * The foreground of a highlight.js scope ('keyword', 'title.function', 'string', …); plain for the
 * rest. The same object each time for a scope and theme, so the styles built on it can be cached.
 */
export function syntaxStyle(scope: string | null, theme: DiffTheme): Style {
  if (scope === null) return PLAIN;
  const key = `${theme.depth}${theme.light ? 'L' : 'D'}${scope}`;
  let style = SYNTAX.get(key);
  if (style === undefined) {
    style = scopeStyle(scope, theme);
    SYNTAX.set(key, style);
  }
  return style;
}

function scopeStyle(scope: string, theme: DiffTheme): Style {
  const head = scope.split('.')[0]!;
  const blue = theme.depth === '256' && !theme.light ? '94' : '34';
  switch (head) {
    case 'keyword':
    case 'selector-tag':
    case 'doctag':
    case 'section':
      return { fg: '35' };
    case 'literal':
    case 'number':
    case 'symbol':
    case 'bullet':
      return { fg: '36' };
    case 'built_in':
    case 'type':
    case 'class':
      return { fg: '36' };
    case 'string':
    case 'regexp':
    case 'char':
    case 'template-tag':
    case 'link':
      return { fg: '33' };
    case 'title':
    case 'name':
    case 'tag':
    case 'selector-id':
    case 'selector-class':
      return { fg: blue };
    case 'attr':
    case 'attribute':
    case 'property':
    case 'params':
    case 'variable':
    case 'template-variable':
      return PLAIN;
    case 'comment':
    case 'quote':
    case 'meta':
      return { fg: '90', italic: head !== 'meta' };
    case 'emphasis':
      return { italic: true };
    case 'strong':
      return { bold: true };
    default:
      return PLAIN;
  }
}

const MERGED = new WeakMap<Style, WeakMap<Style, Style>>();

/** `b` over `a`, field by field; the same object for the same two styles. */
export function merge(a: Style, b: Style): Style {
  if (b === PLAIN) return a;
  if (a === PLAIN) return b;
  let byB = MERGED.get(a);
  if (byB === undefined) MERGED.set(a, (byB = new WeakMap()));
  let m = byB.get(b);
  if (m === undefined) byB.set(b, (m = { ...a, ...b }));
  return m;
}

const CODES = new WeakMap<Style, string>();

/** The SGR sequence that sets exactly `s` (from a reset state), or '' for plain text. */
export function sgr(s: Style): string {
  let code = CODES.get(s);
  if (code === undefined) CODES.set(s, (code = sgrOf(s)));
  return code;
}

function sgrOf(s: Style): string {
  const codes: string[] = [];
  if (s.bold) codes.push('1');
  if (s.dim) codes.push('2');
  if (s.italic) codes.push('3');
  if (s.reverse) codes.push('7');
  if (s.fg !== undefined) codes.push(s.fg);
  if (s.bg !== undefined) codes.push(s.bg);
  return codes.length === 0 ? '' : `\x1b[${codes.join(';')}m`;
}

export const RESET = '\x1b[0m';
