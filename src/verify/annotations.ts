// Diagnostics as GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`),
// which the runner turns into annotations on the pull request's diff. Pure: the CLI prints the lines
// when GITHUB_ACTIONS=true. Escaping follows @actions/core's command.ts: the message escapes %, CR
// and LF; a property value escapes those and also `:` and `,`, which would end the value.
import type { Diagnostic } from '../model/diagnostic.js';

// A report read back from JSON may hold any severity: what is not an error or a warning is a notice.
function command(severity: string): 'error' | 'warning' | 'notice' {
  return severity === 'warning' ? 'warning' : severity === 'error' ? 'error' : 'notice';
}

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
  const title = opts.title ?? label(d);
  props.push(['title', title]);
  return `::${command(d.severity)} ${props.map(([k, v]) => `${k}=${escapeProperty(v)}`).join(',')}::${escapeData(d.message)}`;
}

/** Every diagnostic's line, in order. */
export function annotations(diagnostics: readonly Diagnostic[], opts: { readonly title?: string } = {}): string[] {
  return diagnostics.map((d) => annotation(d, opts));
}

/** The annotations of a whole run: every job's diagnostics, titled with the job they failed. */
export function runAnnotations(jobs: readonly { readonly recipe: string; readonly name: string; readonly diagnostics?: readonly Diagnostic[] }[]): string[] {
  return jobs.flatMap((j) =>
    (j.diagnostics ?? []).map((d) => annotation(d, { title: `scion ${j.recipe === j.name ? j.name : `${j.recipe}/${j.name}`}: ${label(d)}` })),
  );
}

function label(d: Diagnostic): string {
  const source = d.source ?? 'verify';
  return d.code ? `${source} ${d.code}` : source;
}
