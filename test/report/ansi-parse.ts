// Reads terminal output the way a terminal does: SGR sequences set a state (foreground, background,
// bold, dim, italic, reverse) that applies to the characters after them. Tests ask what style a
// piece of text was drawn in, instead of comparing escape codes.
import stringWidth from 'string-width';

export interface SgrState {
  readonly fg: string | null;
  readonly bg: string | null;
  readonly bold: boolean;
  readonly dim: boolean;
  readonly italic: boolean;
  readonly reverse: boolean;
}

const RESET: SgrState = { fg: null, bg: null, bold: false, dim: false, italic: false, reverse: false };

export interface Run {
  readonly text: string;
  readonly style: SgrState;
}

/** Every ESC in `s` that does not start a complete SGR sequence (`ESC [ digits;… m`). */
export function brokenEscapes(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\x1b'); i !== -1; i = s.indexOf('\x1b', i + 1)) if (!/^\x1b\[[0-9;]*m/.test(s.slice(i))) n += 1;
  return n;
}

/** One line as runs of text in one style. Throws on an escape that is not a complete SGR sequence. */
export function parseAnsi(line: string): Run[] {
  const runs: Run[] = [];
  let state = RESET;
  const re = /\x1b\[([0-9;]*)m/g;
  let last = 0;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    if (m.index > last) runs.push({ text: line.slice(last, m.index), style: state });
    state = apply(state, m[1]!);
    last = re.lastIndex;
  }
  if (last < line.length) runs.push({ text: line.slice(last), style: state });
  if (runs.some((r) => r.text.includes('\x1b'))) throw new Error(`broken escape sequence in ${JSON.stringify(line)}`);
  return runs;
}

/** The state at the end of the line (what would leak into the next one). */
export function endState(line: string): SgrState {
  let state = RESET;
  for (const m of line.matchAll(/\x1b\[([0-9;]*)m/g)) state = apply(state, m[1]!);
  return state;
}

export function isReset(s: SgrState): boolean {
  return JSON.stringify(s) === JSON.stringify(RESET);
}

function apply(s: SgrState, params: string): SgrState {
  const p = params === '' ? [0] : params.split(';').map(Number);
  let out = { ...s };
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === 0) out = { ...RESET };
    else if (c === 1) out.bold = true;
    else if (c === 2) out.dim = true;
    else if (c === 22) out = { ...out, bold: false, dim: false };
    else if (c === 3) out.italic = true;
    else if (c === 23) out.italic = false;
    else if (c === 7) out.reverse = true;
    else if (c === 27) out.reverse = false;
    else if ((c >= 30 && c <= 37) || (c >= 90 && c <= 97)) out.fg = String(c);
    else if (c === 39) out.fg = null;
    else if ((c >= 40 && c <= 47) || (c >= 100 && c <= 107)) out.bg = String(c);
    else if (c === 49) out.bg = null;
    else if (c === 38 || c === 48) {
      const value = p[i + 1] === 5 ? `5;${p[i + 2]}` : `2;${p[i + 2]};${p[i + 3]};${p[i + 4]}`;
      i += p[i + 1] === 5 ? 2 : 4;
      if (c === 38) out.fg = value;
      else out.bg = value;
    }
  }
  return out;
}

/** The line without escape sequences. */
export function plainText(line: string): string {
  return line.replace(/\x1b\[[0-9;]*m/g, '');
}

export function visibleWidth(line: string): number {
  return stringWidth(plainText(line));
}

/**
 * The style `needle` is drawn in on `line` (at its `nth` occurrence in the visible text); throws when
 * it is absent or when its characters are not all in one style.
 */
export function styleOf(line: string, needle: string, nth = 0): SgrState {
  const runs = parseAnsi(line);
  const text = runs.map((r) => r.text).join('');
  let at = -1;
  for (let k = 0; k <= nth; k++) at = text.indexOf(needle, at + 1);
  if (at === -1) throw new Error(`${JSON.stringify(needle)} is not in ${JSON.stringify(text)}`);
  const styles = new Set<string>();
  let pos = 0;
  for (const r of runs) {
    const start = pos;
    pos += r.text.length;
    if (pos > at && start < at + needle.length) styles.add(JSON.stringify(r.style));
  }
  if (styles.size !== 1) throw new Error(`${JSON.stringify(needle)} is drawn in ${styles.size} styles on ${JSON.stringify(line)}`);
  return JSON.parse([...styles][0]!) as SgrState;
}
