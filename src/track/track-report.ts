// `scion track` as a library call: read where every job's pull request stands (through the hosts,
// writes under the write budget, reads conditional), append the run's snapshot to the history, and
// write what was asked for: the HTML page, the CSV rows, the tracking issue.
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { defaultCacheDir } from '../campaign/clone-cache.js';
import { forge } from '../host/credentials.js';
import { ReadCache } from '../host/etags.js';
import { hostForUrl } from '../host/open.js';
import type { Host, HostIssue } from '../host/types.js';
import type { HostKind } from '../host/remote.js';
import type { RunReport } from '../model/types.js';
import { renderTrackCsv } from './csv.js';
import { gatherPulls, type GatherOptions } from './gather.js';
import { renderTrackHtml } from './html.js';
import { keepTrackingIssue, renderTrackIssue } from './issue.js';
import { parseHistory, snapshotOf } from './snapshot.js';
import type { TrackRow, TrackSnapshot } from './types.js';

export interface TrackOptions extends GatherOptions {
  /** JSON Lines file the snapshot is appended to (and the burndown read from). */
  readonly history?: string;
  readonly html?: string;
  readonly csv?: string;
  /** `OWNER/REPO`, `OWNER/REPO#N`, or the repository's https URL (with `#N`): where the tracking issue is kept. */
  readonly issue?: string;
  /** File the conditional reads are kept in between runs. Default: beside the clone cache. null: none. */
  readonly readCache?: string | null;
}

export interface TrackResult {
  readonly rows: readonly TrackRow[];
  readonly snapshot: TrackSnapshot;
  /** Every snapshot of the history, this run's last. */
  readonly history: readonly TrackSnapshot[];
  readonly issue: { readonly url: string; readonly action: 'created' | 'updated' } | null;
  readonly problems: readonly string[];
  /** Reads the host answered "not modified", and reads answered in full. */
  readonly reads: { readonly notModified: number; readonly full: number };
}

export async function trackReport(report: RunReport, o: TrackOptions): Promise<TrackResult> {
  const issueAt = o.issue === undefined ? null : parseIssueSpec(o.issue);
  const cacheFile = o.readCache === null ? null : (o.readCache ?? join(dirname(defaultCacheDir(o.env)), 'http-cache.json'));
  const reads = cacheFile === null ? new ReadCache() : await ReadCache.load(resolve(o.cwd, cacheFile));
  const hostOptions = { ...o.hostOptions, reads };
  let kind: HostKind | null = null;
  const { rows, problems } = await gatherPulls(report, { ...o, hostOptions }, async (p) => {
    kind ??= p.host?.kind ?? null;
  });
  if (cacheFile !== null) await reads.save(resolve(o.cwd, cacheFile));
  const snapshot = snapshotOf(
    rows,
    report.jobs.map((j) => j.recipe),
    o.now,
  );
  let history: TrackSnapshot[] = [snapshot];
  if (o.history !== undefined) {
    const file = resolve(o.cwd, o.history);
    await mkdir(dirname(file), { recursive: true });
    await appendFile(file, `${JSON.stringify(snapshot)}\n`);
    history = parseHistory(await readFile(file, 'utf8'));
  }
  const title = `scion: tracking ${snapshot.recipe}`;
  if (o.html !== undefined) await writeOut(resolve(o.cwd, o.html), renderTrackHtml(history, rows, title));
  if (o.csv !== undefined) await writeOut(resolve(o.cwd, o.csv), renderTrackCsv(rows));
  let issue: TrackResult['issue'] = null;
  if (issueAt !== null) {
    const host = issueHost(issueAt, kind ?? 'github', o);
    const kept: { issue: HostIssue; action: 'created' | 'updated' } = await keepTrackingIssue(
      host,
      snapshot.recipe,
      renderTrackIssue(history, rows, snapshot.recipe, host.issueLimit),
      issueAt.number ?? undefined,
    );
    issue = { url: kept.issue.url, action: kept.action };
  }
  return { rows, snapshot, history, issue, problems, reads: { notModified: reads.hits, full: reads.misses } };
}

async function writeOut(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

interface IssueSpec {
  readonly url: string | null;
  readonly path: string;
  readonly number: number | null;
}

/** `OWNER/REPO[#N]`, `group/sub/project[#N]` or an https URL of the repository (or of the issue). */
export function parseIssueSpec(spec: string): IssueSpec {
  const s = spec.trim();
  const url = /^(https?:\/\/[^#\s]+?)(?:\/-)?\/issues\/(\d+)\/?$/.exec(s) ?? /^(https?:\/\/[^#\s]+?)(?:#(\d+))?$/.exec(s);
  if (url) {
    const path = new URL(url[1]!).pathname.replace(/^\/|\/$/g, '');
    return { url: url[1]!.replace(/\/+$/, ''), path, number: url[2] === undefined ? null : Number(url[2]) };
  }
  const m = /^([A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)+)(?:#(\d+))?$/.exec(s);
  if (!m) throw new UsageError(`--issue ${spec} is not OWNER/REPO or OWNER/REPO#N (for example --issue acme/codemods or --issue acme/codemods#12).`);
  return { url: null, path: m[1]!, number: m[2] === undefined ? null : Number(m[2]) };
}

/** The host of the issue's repository: its URL's, else the forge the report's pull requests are on. */
function issueHost(at: IssueSpec, kind: HostKind, o: TrackOptions): Host {
  const url = at.url ?? `${forge(kind, o.env).server}/${at.path}`;
  return hostForUrl(url, 'the --issue repository', o.env, o.hostOptions ?? {});
}
