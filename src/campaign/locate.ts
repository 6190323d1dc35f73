// Where the repositories of a campaign report are (`scion pr`, `status`, `branches` and
// `merge-reports` work on such a report): a job's `repo` is a local path, or `<host>/<owner>/<name>`
// whose clone is in the cache, and whose URL that clone's `origin` remembers.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { closeRepo, openRepo, remoteUrl } from '../git/index.js';
import type { RunReport } from '../model/types.js';
import type { CampaignRepoRef } from '../publish/campaign.js';
import { clonePath, ensureClone } from './clone-cache.js';
import { cloneDamage } from './clone-health.js';
import type { ParsedTargets, RepoTarget } from './targets.js';

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
 * `line N: …` for each local path of a list that is no repository scion can open: checked before
 * anything runs, like a line that cannot be read, since a path (unlike a URL) can be checked
 * without the network, and a typo in it should cost nothing rather than a campaign half done.
 */
export async function localTargetProblems(parsed: ParsedTargets): Promise<string[]> {
  const problems: string[] = [];
  for (const [i, t] of parsed.targets.entries()) {
    if (t.path === null) continue;
    const where = `line ${parsed.lines[i] ?? '?'}: ${t.path}`;
    let isDir: boolean;
    try {
      isDir = statSync(t.path).isDirectory();
    } catch (e) {
      problems.push(`${where} does not exist (${(e as NodeJS.ErrnoException).code ?? String(e)}); correct the path, or remove the line`);
      continue;
    }
    if (!isDir) {
      problems.push(`${where} is a file, not a repository's folder`);
      continue;
    }
    try {
      closeRepo(await openRepo(t.path));
    } catch {
      problems.push(`${where} is not a git repository (no .git found there or above); correct the path, or remove the line`);
    }
  }
  return problems;
}
