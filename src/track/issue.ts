// The tracking issue: one issue per recipe in a repository of the user's choice, found again by the
// marker its body starts with and edited on every run. Hosts cap a body's length (GitHub 65,536
// characters, GitLab 1,048,576), whatever the number of jobs: the rows are folded into counts per
// repository first, and if those still do not fit they are cut with a line saying how many were left out.
import type { Host, HostIssue } from '../host/types.js';
import { TRACK_STATES, type TrackFlag, type TrackRow, type TrackSnapshot } from './types.js';
import { plural } from '../util/plural.js';

export const trackMarker = (recipe: string) => `<!-- scion-track: ${recipe.replace(/-->/g, '')} -->`;

/** Burndown lines in the issue: the history sampled to at most this many snapshots, the last always in. */
const BURNDOWN_LINES = 30;
/** Left for the host's own counting and a margin: the body is kept this far under the limit. */
const MARGIN = 512;

const cell = (s: string) =>
  s
    .replace(/[\r\n]+/g, ' ')
    .replace(/\|/g, '\\|')
    .replace(/@/g, '@\u200b');

export function renderTrackIssue(history: readonly TrackSnapshot[], rows: readonly TrackRow[], recipe: string, limit: number): string {
  const head = headOf(history, recipe);
  const budget = limit - MARGIN;
  const full = `${head}\n## Pull requests\n\n${jobTable(rows)}`;
  if (full.length <= budget) return full;
  const folded = `${head}\n## Pull requests by repository\n\n${rows.length} jobs are too many to list one by one here; the counts of each repository:\n\n`;
  const lines = repoLines(rows);
  let out = `${folded}${REPO_HEAD}`;
  const reserve = cutLength(lines.length);
  for (const [k, { line }] of lines.entries()) {
    if (out.length + line.length + 1 + reserve > budget) {
      const rest = lines.length - k;
      const jobs = lines.slice(k).reduce((n, l) => n + l.jobs, 0);
      const what = `${plural(rest, 'more repository', 'more repositories')} (${plural(jobs, 'job')})`;
      return `${out}\n_…and ${what} left out to stay within the host's limit; \`scion track --html\` lists every job._\n`;
    }
    out += `${line}\n`;
  }
  return out;
}

const cutLength = (n: number) => 120 + String(n).length;

function headOf(history: readonly TrackSnapshot[], recipe: string): string {
  const last = history[history.length - 1];
  const keys = ['jobs', ...TRACK_STATES, 'failing', 'noReviewer', 'stale', 'behind', 'remaining'];
  const value = (k: string) => String((last as unknown as Record<string, number> | undefined)?.[k] ?? 0);
  const counts = last ? `| ${keys.join(' | ')} |\n|${keys.map(() => '---:').join('|')}|\n| ${keys.map(value).join(' | ')} |\n` : '';
  const sampled = sample(history, BURNDOWN_LINES);
  const burn = [
    `| date | ${TRACK_STATES.join(' | ')} | remaining files |`,
    `|---|${TRACK_STATES.map(() => '---:').join('|')}|---:|`,
    ...sampled.map((s) => `| ${s.at.slice(0, 10)} | ${TRACK_STATES.map((k) => String(s[k] ?? 0)).join(' | ')} | ${s.remaining} |`),
  ].join('\n');
  const title = `${trackMarker(recipe)}\n# Tracking \`${cell(recipe)}\`\n\nUpdated by \`scion track\` on ${last?.at ?? 'its first run'}.\n\n`;
  return `${title}${counts}\n## Burndown\n\n${burn}\n`;
}

function sample<T>(all: readonly T[], n: number): T[] {
  if (all.length <= n) return [...all];
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(all[Math.round((i * (all.length - 1)) / (n - 1))]!);
  return out;
}

function jobTable(rows: readonly TrackRow[]): string {
  const lines = rows.map((r) => {
    const pr = r.pullRequest === null ? '-' : `[#${r.pullRequest.number}](${r.pullRequest.url})`;
    const status = `${r.state} | ${r.checks} | ${r.review} | ${cell(r.reviewers.join(', '))} | ${r.idleDays ?? ''} | ${r.behind ?? '?'}`;
    return `| ${cell(r.repo)} | \`${cell(r.branch)}\` | ${pr} | ${status} | ${r.flags.join(' ')} |`;
  });
  const head = '| repository | branch | pull request | state | checks | review | reviewers requested | days idle | behind | flags |';
  return [head, '|---|---|---|---|---|---|---|---:|---:|---|', ...lines].join('\n') + '\n';
}

const REPO_HEAD = `| repository | jobs | ${TRACK_STATES.join(' | ')} | failing | stale |\n|---|---:|${TRACK_STATES.map(() => '---:').join('|')}|---:|---:|\n`;

const byState = (rs: readonly TrackRow[]) => TRACK_STATES.map((s) => rs.filter((r) => r.state === s).length).join(' | ');
const flagged = (rs: readonly TrackRow[], f: TrackFlag) => rs.filter((r) => r.flags.includes(f)).length;

/** One line per repository, those with the most work left first. */
function repoLines(rows: readonly TrackRow[]): { line: string; jobs: number }[] {
  const by = new Map<string, TrackRow[]>();
  for (const r of rows) by.set(r.repo, [...(by.get(r.repo) ?? []), r]);
  const left = (rs: TrackRow[]) => rs.filter((r) => r.state === 'open' || r.state === 'draft' || r.state === 'none').length;
  return [...by.entries()]
    .sort((a, b) => left(b[1]) - left(a[1]) || (a[0] < b[0] ? -1 : 1))
    .map(([repo, rs]) => ({
      jobs: rs.length,
      line: `| ${cell(repo)} | ${rs.length} | ${byState(rs)} | ${flagged(rs, 'failing')} | ${flagged(rs, 'stale')} |`,
    }));
}

/** Creates the tracking issue on the first run, edits it afterwards (never a second one). */
export async function keepTrackingIssue(
  host: Host,
  recipe: string,
  body: string,
  number?: number,
): Promise<{ issue: HostIssue; action: 'created' | 'updated' }> {
  const found = await host.findIssue(trackMarker(recipe), number);
  if (found !== null) return { issue: await host.editIssue(found, body), action: 'updated' };
  return { issue: await host.createIssue(`scion: tracking ${recipe}`, body), action: 'created' };
}
