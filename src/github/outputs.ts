// GitHub Actions' step outputs and job summary (the files named by GITHUB_OUTPUT and
// GITHUB_STEP_SUMMARY). The environment comes in as an argument; only the append touches the disk.
import { randomUUID } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import type { RunReport } from '../model/types.js';

export type AppendFile = (path: string, data: string) => Promise<void>;

export interface GithubOutputInput {
  readonly report: RunReport;
  readonly reportPath: string | null;
  readonly prBodyPath: string | null;
  /** Markdown for the job summary (renderSummary). */
  readonly summary: string;
}

/**
 * Outputs written: `branches` (changed jobs' branches, one per line), `changed` and `failed`
 * (`true`/`false`), and `report` / `pr-body` when those files were written.
 */
export async function githubOutputs(
  env: Readonly<Record<string, string | undefined>>,
  o: GithubOutputInput,
  fsWrite: AppendFile = (path, data) => appendFile(path, data, 'utf8'),
): Promise<void> {
  const outputFile = env.GITHUB_OUTPUT;
  if (outputFile) {
    const branches = [...new Set(o.report.jobs.filter((j) => j.status === 'changed').map((j) => j.branch))];
    const values: [string, string][] = [
      ['branches', branches.join('\n')],
      ['changed', String(branches.length > 0)],
      ['failed', String(o.report.jobs.some((j) => j.status === 'failed'))],
    ];
    if (o.reportPath !== null) values.push(['report', o.reportPath]);
    if (o.prBodyPath !== null) values.push(['pr-body', o.prBodyPath]);
    await fsWrite(outputFile, values.map(([k, v]) => outputEntry(k, v)).join(''));
  }
  const summaryFile = env.GITHUB_STEP_SUMMARY;
  if (summaryFile) await fsWrite(summaryFile, o.summary.endsWith('\n') ? o.summary : `${o.summary}\n`);
}

/**
 * `name=value`, or for a value with a line break the `name<<DELIM` form. The delimiter is random
 * so no value (a branch name, a path) can end the block early and inject another output.
 */
export function outputEntry(name: string, value: string): string {
  if (!/[\r\n]/.test(value)) return `${name}=${value}\n`;
  let delimiter = `scion_${randomUUID()}`;
  while (value.includes(delimiter)) delimiter = `scion_${randomUUID()}`;
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}
