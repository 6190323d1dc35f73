// `branches`: scion's branches in a repository (or in each repository of a campaign report), and with
// prune, those whose pull request is merged or closed, or that hold no commit, deleted (locally, and
// on the remote when one is named). Never a branch with a commit that is not scion's.
import { resolve } from 'node:path';
import { isScionError } from '../errors.js';
import { closeRepo, openRepo } from '../git/index.js';
import type { Env } from '../host/remote.js';
import type { JobReport } from '../model/types.js';
import { pruneBranches, type PruneEntry, type ScionJobRef } from '../publish/prune.js';
import { remoteContext } from './remote-context.js';
import { readReport } from './reports.js';
import { campaignRepos, isCampaignReport } from './repositories.js';

export type { PruneEntry } from '../publish/prune.js';

export interface BranchesOptions {
  /** Delete what is done; without it, say what would go. */
  readonly prune?: boolean;
  /** Prune on this remote too (and ask its host about pull requests); it must be reachable. */
  readonly remote?: string;
  /** Default: `cwd`. */
  readonly repo?: string;
  /** A report: the branches its jobs name (custom `branch` templates too); a campaign report: each of its repositories. */
  readonly report?: string;
  /** A campaign report's clones. Default: the campaign cache. */
  readonly cacheDir?: string;
  readonly cwd?: string;
  readonly env?: Env;
}

export interface RepositoryBranches {
  /** The campaign repository (`<host>/<owner>/<name>` or a path); null for the one repository. */
  readonly id: string | null;
  readonly entries: readonly PruneEntry[];
  /** Why this repository's branches could not be looked at (its host or remote failed); null when they were. */
  readonly error: string | null;
}

export interface BranchesResult {
  readonly repositories: readonly RepositoryBranches[];
  /** Repositories of a campaign report that could not be found nor cloned, one sentence each. */
  readonly problems: readonly string[];
}

export async function branches(o: BranchesOptions = {}): Promise<BranchesResult> {
  const cwd = o.cwd ?? process.cwd();
  const env = o.env ?? process.env;
  const here = resolve(cwd, o.repo ?? '.');
  if (o.report === undefined) return { repositories: [await pruneIn(o, env, here, o.remote, null, new Map())], problems: [] };
  const report = await readReport(o.report, cwd);
  // One repository's report: the repository it names.
  if (!isCampaignReport(report)) {
    return { repositories: [await pruneIn(o, env, report.repo ?? here, o.remote, null, namedBranches(report.jobs))], problems: [] };
  }
  const { repos, problems } = await campaignRepos(report, { ...(o.cacheDir !== undefined ? { cacheDir: o.cacheDir } : {}), cwd, env });
  const out: RepositoryBranches[] = [];
  for (const ref of repos) {
    // A clone's remote is `origin`, the URL it came from; --remote asks for pruning there too.
    const remote = o.remote === undefined ? undefined : ref.url !== null ? 'origin' : o.remote;
    out.push(await pruneIn(o, env, ref.dir, remote, ref.id, namedBranches(report.jobs.filter((j) => j.repo === ref.id))));
  }
  return { repositories: out, problems };
}

/** The branches a report's jobs name, with the recipe and job each belongs to (a custom `branch` template). */
function namedBranches(jobs: readonly JobReport[]): Map<string, ScionJobRef> {
  return new Map(jobs.map((j) => [j.branch, { recipe: j.recipe, job: j.name }]));
}

async function pruneIn(
  o: BranchesOptions,
  env: Env,
  dir: string,
  remote: string | undefined,
  id: string | null,
  named: ReadonlyMap<string, ScionJobRef>,
): Promise<RepositoryBranches> {
  const repo = await openRepo(dir);
  try {
    // A named remote must work; without one, origin's host is asked when it can be.
    const ctx = remoteContext(repo, remote ?? 'origin', env, remote !== undefined);
    const entries = await pruneBranches(repo, {
      host: ctx.host,
      ...(remote !== undefined && ctx.push !== null ? { remote: ctx.push } : {}),
      baseTip: await ctx.baseTip(null),
      dryRun: o.prune !== true,
      named,
    });
    return { id, entries, error: null };
  } catch (e) {
    // The host or the remote refused or could not be reached: this repository's error; the others go on.
    if (!isScionError(e, 'host', 'remote')) throw e;
    return { id, entries: [], error: e.message };
  } finally {
    closeRepo(repo);
  }
}
