// A fix template split into literal text and metavariables, read exactly as the ast-grep CLI reads
// it: `$NAME` (a single node), `$$$NAME` (a list of nodes), and a name a `transform` defines. `$$NAME`
// reads as `$NAME`; a `$` not followed by a name ([A-Z0-9_]+) is literal text.

export type TemplatePiece =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'var';
      readonly name: string;
      readonly multi: boolean;
      /** Names a transform's result rather than a captured node. */
      readonly transformed: boolean;
      /** The leading whitespace of the template line the variable sits on: multi-line values are indented to it. */
      readonly indent: string;
    };

export interface Template {
  readonly source: string;
  readonly pieces: readonly TemplatePiece[];
  /** Every metavariable the template reads (transformed ones included). */
  readonly names: ReadonlySet<string>;
}

const isNameChar = (c: string): boolean => (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_';

export function parseTemplate(template: string, transformed: ReadonlySet<string>, metaChar = '$'): Template {
  const pieces: TemplatePiece[] = [];
  const names = new Set<string>();
  let textStart = 0;
  let i = template.indexOf(metaChar);
  while (i !== -1) {
    const v = readVar(template, i, metaChar);
    if (v === null) {
      i = template.indexOf(metaChar, i + metaChar.length);
      continue;
    }
    if (i > textStart) pieces.push({ kind: 'text', text: template.slice(textStart, i) });
    const isTransformed = !v.multi && transformed.has(v.name);
    pieces.push({ kind: 'var', name: v.name, multi: v.multi, transformed: isTransformed, indent: lineIndent(template, i) });
    names.add(v.name);
    textStart = v.end;
    i = template.indexOf(metaChar, textStart);
  }
  if (textStart < template.length) pieces.push({ kind: 'text', text: template.slice(textStart) });
  return { source: template, pieces, names };
}

function readVar(s: string, at: number, metaChar: string): { name: string; multi: boolean; end: number } | null {
  // One to three meta characters: three make a list variable, one or two a single one.
  let n = 1;
  let p = at + metaChar.length;
  while (n < 3 && s.startsWith(metaChar, p)) {
    n++;
    p += metaChar.length;
  }
  let end = p;
  while (end < s.length && isNameChar(s[end] as string)) end++;
  if (end === p) return null;
  return { name: s.slice(p, end), multi: n === 3, end };
}

/** As the CLI: the indentation of a line whose start is further back than this is taken as none. */
const LOOK_BACK = 512;

/**
 * The leading blanks of the line holding `offset`. The CLI counts leading spaces only; tabs are kept
 * here as they are, so tab-indented code is indented with tabs. Looking back is bounded, as in the
 * CLI, so a match deep inside a minified line costs nothing.
 */
export function lineIndent(text: string, offset: number): string {
  const floor = Math.max(0, offset - LOOK_BACK);
  let lineStart = offset;
  while (lineStart > floor && text.charCodeAt(lineStart - 1) !== 10) lineStart--;
  if (lineStart > 0 && text.charCodeAt(lineStart - 1) !== 10) return '';
  let end = lineStart;
  while (end < offset && (text[end] === ' ' || text[end] === '\t')) end++;
  return text.slice(lineStart, end);
}
