// Colour for terminal output, only when asked (the CLI decides from the TTY and NO_COLOR).
// Kept instead of util.styleText: from Node 22 styleText decides by itself from process.stdout and
// process.env (validateStream), which would overrule the CLI's decision for the stream it actually
// writes (stderr for progress, a file for --patch) and the environment a test injects; six SGR
// pairs are all scion uses.

export interface Paint {
  readonly red: (s: string) => string;
  readonly green: (s: string) => string;
  readonly cyan: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
}

const wrap = (open: number, close: number) => (s: string) => (s === '' ? s : `\x1b[${open}m${s}\x1b[${close}m`);
const plain = (s: string) => s;

export function paint(color: boolean): Paint {
  if (!color) return { red: plain, green: plain, cyan: plain, yellow: plain, bold: plain, dim: plain };
  return { red: wrap(31, 39), green: wrap(32, 39), cyan: wrap(36, 39), yellow: wrap(33, 39), bold: wrap(1, 22), dim: wrap(2, 22) };
}

/** C0 controls but tab, DEL, and the C1 controls (U+0080–U+009F: 8-bit CSI and OSC that some terminals obey). */
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f\u0080-\u009f]/g;
const shown = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/**
 * File content and messages may hold escape sequences or carriage returns that would repaint the
 * user's terminal; show them as visible `\xNN` instead. Tabs stay.
 */
export function visible(s: string): string {
  return s.replace(CONTROL, shown);
}

/**
 * `visible` for whole lines of text: line breaks stay (CRLF read as one), every other control
 * character is shown as `\xNN`. What the CLI's edge applies to every line it prints (cli/io.ts).
 */
export function terminalText(s: string): string {
  return s
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => line.replace(CONTROL, shown))
    .join('\n');
}
