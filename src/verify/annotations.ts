// Diagnostics as GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`),
// which the runner turns into annotations on the pull request's diff. Pure: the CLI prints the lines
// when GITHUB_ACTIONS=true. Escaping follows @actions/core's command.ts: the message escapes %, CR
// and LF; a property value escapes those and also `:` and `,`, which would end the value.
import type { Diagnostic } from '../model/diagnostic.js';

const COMMAND = { error: 'error', warning: 'warning', info: 'notice' } as const;

export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One workflow command line (no trailing newline). */
export function annotation(d: Diagnostic, opts: { readonly title?: string } = {}): string {
  const props: [string, string][] = [
    ['file', d.file],
    ['line', String(d.line)],
  ];
  if (d.col > 0) props.push(['col', String(d.col)]);
  const title = opts.title ?? (d.code ? `${d.source} ${d.code}` : d.source);
  props.push(['title', title]);
  return `::${COMMAND[d.severity]} ${props.map(([k, v]) => `${k}=${escapeProperty(v)}`).join(',')}::${escapeData(d.message)}`;
}

/** Every diagnostic's line, in order. */
export function annotations(diagnostics: readonly Diagnostic[], opts: { readonly title?: string } = {}): string[] {
  return diagnostics.map((d) => annotation(d, opts));
}
