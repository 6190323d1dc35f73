// `scion status --report FILE` / `scion status <recipe..> --repo DIR`: flags → the jobs to
// look at, rows → a table or JSON. The rows come from src/publish/status.ts.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { closeRepo, treeOfCommit, listTree, openRepo, readRef, resolveCommit, type Repo } from '../../git/index.js';
import { parseRunReport } from '../../model/parse.js';
import { pullRequestStatus, renderStatusTable, type StatusJob, type StatusRow } from '../../publish/status.js';
import { defaultCacheDir } from '../../campaign/clone-cache.js';
import { isCampaignReport, reposOfReport } from '../../campaign/locate.js';
import type { RunReport } from '../../model/types.js';
import { expandJobs, staticPrefixes } from '../../recipe/index.js';
import { makeRedactor } from '../../redact.js';
import { scionChain } from '../../branch/chain.js';
import { HostError } from '../../host/types.js';
import type { CliIo } from '../io.js';
import { loadAll } from '../load.js';
import { remoteContext } from './publish-context.js';


export interface StatusFlags {
  report?: string;
  repo: string;
  remote?: string;
  json: boolean;
  recipes: readonly string[];
  cacheDir?: string;
}

export async function statusCmd(io: CliIo, flags: StatusFlags): Promise<number> {
  if ((flags.report === undefined) === (flags.recipes.length === 0)) {
    throw new UsageError('Name either --report FILE or recipe files: `scion status --report out.json` or `scion status recipes/x.yaml --repo DIR`.');
  }
  if (flags.report !== undefined) {
    const report = parseRunReport(await readReport(io, flags.report), flags.report);
    if (isCampaignReport(report)) return campaignStatus(io, flags, report);
  }
  const repo = await openRepo(resolve(io.cwd, flags.repo));
  try {
    let jobs: StatusJob[];
    let remote = flags.remote;
    let repoPath = repo.workTree ?? repo.commonDir;
    if (flags.report !== undefined) {
      const report = parseRunReport(await readReport(io, flags.report), flags.report);
      jobs = report.jobs.map((j) => ({ branch: j.branch, base: j.base }));
      remote ??= report.jobs.find((j) => j.pushed)?.pushed?.remote;
      repoPath = report.repo ?? repoPath;
    } else {
      jobs = await recipeJobs(repo, await loadAll(flags.recipes, io.cwd));
    }
    const ctx = remoteContext(repo, remote ?? 'origin', io.env, false);
    const rows = await pullRequestStatus(jobs, { repo, repoPath, host: ctx.host, baseTip: (b) => ctx.baseTip(b) });
    const redact = makeRedactor(io.env);
    io.stdout.write(redact(flags.json ? `${JSON.stringify(rows, null, 2)}\n` : renderStatusTable(rows)));
    return 0;
  } catch (e) {
    if (!(e instanceof HostError)) throw e;
    io.stderr.write(`scion: ${makeRedactor(io.env)(e.message)}\n`);
    return 1;
  } finally {
    closeRepo(repo);
  }
}

/** A campaign report: each repository's rows from its own clone (or path) and its own host. */
async function campaignStatus(io: CliIo, flags: StatusFlags, report: RunReport): Promise<number> {
  const cacheDir = flags.cacheDir !== undefined ? resolve(io.cwd, flags.cacheDir) : defaultCacheDir(io.env);
  const redact = makeRedactor(io.env);
  const rows: StatusRow[] = [];
  const { repos, problems } = await reposOfReport(report, { cacheDir, env: io.env });
  for (const p of problems) io.stderr.write(`scion: ${p}\n`);
  try {
    for (const ref of repos) {
      const repo = await openRepo(ref.dir);
      try {
        const jobs = report.jobs.filter((j) => j.repo === ref.id).map((j) => ({ branch: j.branch, base: j.base }));
        // A clone's `origin` is the URL it was cloned from; a local path's remote is the one asked for.
        const ctx = remoteContext(repo, ref.url !== null ? 'origin' : (flags.remote ?? 'origin'), io.env, false);
        rows.push(...(await pullRequestStatus(jobs, { repo, repoPath: ref.id, host: ctx.host, baseTip: (b) => ctx.baseTip(b ?? ref.branch ?? null) })));
      } finally {
        closeRepo(repo);
      }
    }
  } catch (e) {
    if (!(e instanceof HostError)) throw e;
    io.stderr.write(`scion: ${redact(e.message)}\n`);
    return 1;
  }
  io.stdout.write(redact(flags.json ? `${JSON.stringify(rows, null, 2)}\n` : renderStatusTable(rows, { repos: true })));
  return problems.length > 0 ? 1 : 0;
}

async function readReport(io: CliIo, file: string): Promise<string> {
  try {
    return await readFile(resolve(io.cwd, file), 'utf8');
  } catch (e) {
    throw new UsageError(`Cannot read ${file} (${e instanceof Error ? e.message : String(e)}); pass a report written by \`scion run --report FILE\`.`);
  }
}

/** The jobs of recipes as a run would expand them, each with the base its branch was built on. */
async function recipeJobs(repo: Repo, loaded: Awaited<ReturnType<typeof loadAll>>): Promise<StatusJob[]> {
  const jobs: StatusJob[] = [];
  for (const { recipe } of loaded) {
    const sha = await resolveCommit(repo, recipe.base ?? 'HEAD');
    const dirs = new Set<string>();
    if (sha !== null) {
      for (const e of await listTree(repo, await treeOfCommit(repo, sha), { prefixes: staticPrefixes(recipe.files.include) })) {
        for (let i = e.path.indexOf('/'); i !== -1; i = e.path.indexOf('/', i + 1)) dirs.add(e.path.slice(0, i));
      }
    }
    for (const job of expandJobs(recipe, [...dirs].sort())) {
      const head = await readRef(repo, `refs/heads/${job.branch}`);
      const chain = head === null ? [] : await scionChain(repo, head, recipe.name, job.name, true);
      jobs.push({ branch: job.branch, base: chain[0]?.parent ?? null });
    }
  }
  return jobs;
}
