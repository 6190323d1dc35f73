// Where the repositories of a campaign report are (`scion pr`, `status`, `branches` and
// `merge-reports` work on such a report): a job's `repo` is a local path, or `<host>/<owner>/<name>`
// whose clone is in the cache, and whose URL that clone's `origin` remembers.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { closeRepo, isGitError, openRepo, remoteUrl } from '../git/index.js';
import type { RunReport } from '../model/types.js';
import type { CampaignRepoRef } from '../publish/campaign.js';
import { clonePath, ensureClone } from './clone-cache.js';
import { cloneDamage } from './clone-health.js';
import type { RepoTarget } from './targets.js';

/** True for a report of a campaign: no top-level repository, each job naming its own. */
export function isCampaignReport(report: RunReport): boolean {
  return report.repo === null && report.jobs.some((j) => j.repo !== undefined);
}

export interface LocatedRepos {
  readonly repos: readonly CampaignRepoRef[];
  /** One sentence per repository that could not be found nor cloned (`<repo>: …`). */
  readonly problems: readonly string[];
}

/**
 * The repositories of a campaign report, in the order of their first job: a local path as it is, a
 * remote one from its clone in `cacheDir`. A clone that is not there (the pull-request job of a CI
 * workflow runs on another machine than the shards), or is damaged, is made from the jobs' `repoUrl`
 * (else `https://<repo>.git`).
 */
export async function reposOfReport(
  report: RunReport,
  o: { readonly cacheDir: string; readonly env: Readonly<Record<string, string | undefined>> },
): Promise<LocatedRepos> {
  const ids = [...new Set(report.jobs.flatMap((j) => (j.repo !== undefined ? [j.repo] : [])))];
  const repos: CampaignRepoRef[] = [];
  const problems: string[] = [];
  for (const id of ids) {
    if (isAbsolute(id)) {
      repos.push({ id, dir: id, url: null });
      continue;
    }
    const url = report.jobs.find((j) => j.repo === id && j.repoUrl !== undefined)?.repoUrl ?? `https://${id}.git`;
    const target: RepoTarget = { id, url, path: null, ref: null };
    const dir = clonePath(o.cacheDir, target);
    // A clone that is missing, or damaged on disk, is made (anew) rather than failing the command.
    if (!existsSync(join(dir, 'HEAD')) || (await cloneDamage(dir)) !== null) {
      const made = await ensureClone(target, { cacheDir: o.cacheDir, env: o.env });
      if (!made.ok) {
        problems.push(`${id}: ${made.error.message}`);
        continue;
      }
    }
    const repo = await openRepo(dir);
    let origin: string | null;
    try {
      origin = remoteUrl(repo, 'origin');
    } finally {
      closeRepo(repo);
    }
    if (origin === null) {
      problems.push(`${id}: the clone ${dir} names no URL (remote.origin.url); remove it so the next run clones it anew.`);
      continue;
    }
    repos.push({ id, dir, url: origin, branch: headBranch(dir) });
  }
  return { repos, problems };
}

/** The branch a bare clone's HEAD names (the branch it fetched), or null. */
function headBranch(dir: string): string | null {
  try {
    const m = /^ref: refs\/heads\/(.+)$/m.exec(readFileSync(join(dir, 'HEAD'), 'utf8'));
    return m ? m[1]!.trim() : null;
  } catch {
    return null;
  }
}

/**
 * Why a local path of a list is no repository scion can work in (it does not exist, is a file, or
 * holds no git repository), or null. Asked when the campaign reaches that repository: its jobs fail
 * with this sentence, and the other repositories of the list go on.
 */
export async function localRepoProblem(path: string): Promise<string | null> {
  const fix = 'correct the path in the repository list, or remove the line';
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // A folder the machine refuses to show is not a missing one: the run says which (kind environment).
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return null;
    return `${path} does not exist; ${fix}`;
  }
  if (!isDir) return `${path} is a file, not a repository's folder; ${fix}`;
  try {
    closeRepo(await openRepo(path));
  } catch (e) {
    if (isGitError(e, 'not-a-repository')) return `${path} is not a git repository (no .git found there or above); ${fix}`;
    return null;
  }
  return null;
}
