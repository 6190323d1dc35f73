// `scion branches [--prune] [--remote R] [--report FILE]`: flags → pruning options, entries → lines.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defaultCacheDir } from '../../campaign/clone-cache.js';
import { isCampaignReport, reposOfReport } from '../../campaign/locate.js';
import { UsageError } from '../../errors.js';
import { parseRunReport } from '../../model/parse.js';
import { closeRepo, openRepo } from '../../git/index.js';
import { pruneBranches, type ScionJobRef } from '../../publish/prune.js';
import type { JobReport } from '../../model/types.js';
import { HostError } from '../../host/types.js';
import { makeRedactor } from '../../redact.js';
import type { CliIo } from '../io.js';
import { remoteContext } from './publish-context.js';


export interface BranchesFlags {
  prune: boolean;
  remote?: string;
  repo: string;
  /** A campaign report: prune in each of its repositories. */
  report?: string;
  cacheDir?: string;
}

export async function branchesCmd(io: CliIo, flags: BranchesFlags): Promise<number> {
  if (flags.report !== undefined) return campaignBranches(io, flags, flags.report);
  return pruneIn(io, flags, resolve(io.cwd, flags.repo), flags.remote, '', new Map());
}

/** The branches a report's jobs name, with the recipe and job each belongs to (a custom `branch` template). */
function namedBranches(jobs: readonly JobReport[]): Map<string, ScionJobRef> {
  return new Map(jobs.map((j) => [j.branch, { recipe: j.recipe, job: j.name }]));
}

/** Each repository of a campaign report, its lines prefixed with the repository. */
async function campaignBranches(io: CliIo, flags: BranchesFlags, file: string): Promise<number> {
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), 'utf8');
  } catch (e) {
    throw new UsageError(`Cannot read ${file} (${e instanceof Error ? e.message : String(e)}); pass a report written by \`scion run --report FILE\`.`);
  }
  const report = parseRunReport(text, file);
  if (!isCampaignReport(report)) {
    // One repository's report: the repository it names.
    return pruneIn(io, flags, report.repo ?? resolve(io.cwd, flags.repo), flags.remote, '', namedBranches(report.jobs));
  }
  const cacheDir = flags.cacheDir !== undefined ? resolve(io.cwd, flags.cacheDir) : defaultCacheDir(io.env);
  const { repos, problems } = await reposOfReport(report, { cacheDir, env: io.env });
  for (const p of problems) io.stderr.write(`scion: ${p}\n`);
  let code = problems.length > 0 ? 1 : 0;
  for (const ref of repos) {
    // A clone's remote is `origin`, the URL it came from; --remote asks for pruning there too.
    const remote = flags.remote === undefined ? undefined : ref.url !== null ? 'origin' : flags.remote;
    const named = namedBranches(report.jobs.filter((j) => j.repo === ref.id));
    code = Math.max(code, await pruneIn(io, flags, ref.dir, remote, `${ref.id}: `, named));
  }
  return code;
}

async function pruneIn(io: CliIo, flags: BranchesFlags, dir: string, remoteFlag: string | undefined, prefix: string, named: ReadonlyMap<string, ScionJobRef>): Promise<number> {
  const redact = makeRedactor(io.env);
  const repo = await openRepo(dir);
  try {
    // --remote names a remote that must work; without it, origin's host is asked when it can be.
    const ctx = remoteContext(repo, remoteFlag ?? 'origin', io.env, remoteFlag !== undefined);
    const entries = await pruneBranches(repo, {
      host: ctx.host,
      ...(remoteFlag !== undefined && ctx.push !== null ? { remote: ctx.push } : {}),
      baseTip: await ctx.baseTip(null),
      dryRun: !flags.prune,
      named,
    });
    for (const e of entries) {
      const where = e.where === 'local' ? e.branch : `${e.branch} on ${e.where}`;
      const verb = e.action === 'deleted' ? (flags.prune ? 'deleted' : 'would delete') : 'kept';
      io.stdout.write(redact(`${prefix}${verb} ${where} (${e.reason})\n`));
    }
    if (entries.length === 0) io.stdout.write(`${prefix}no scion branches\n`);
    return 0;
  } catch (e) {
    if (!(e instanceof HostError)) throw e;
    io.stderr.write(`scion: ${redact(e.message)}\n`);
    return 1;
  } finally {
    closeRepo(repo);
  }
}
