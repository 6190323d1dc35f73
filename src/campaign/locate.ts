// Where the repositories of a campaign report are (SPEC §9: `scion pr`, `status`, `branches` and
// `merge-reports` work on such a report): a job's `repo` is a local path, or `<host>/<owner>/<name>`
// whose clone is in the cache, and whose URL that clone's `origin` remembers.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { UsageError } from '../errors.js';
import { closeRepo, openRepo, remoteUrl } from '../git/index.js';
import type { RunReport } from '../model/types.js';
import type { CampaignRepoRef } from '../publish/campaign.js';
import { clonePath } from './clone-cache.js';

/** True for a report of a campaign: no top-level repository, each job naming its own. */
export function isCampaignReport(report: RunReport): boolean {
  return report.repo === null && report.jobs.some((j) => j.repo !== undefined);
}

/** The repositories of a campaign report, in the order of their first job. Throws UsageError for one not found. */
export async function reposOfReport(report: RunReport, cacheDir: string): Promise<CampaignRepoRef[]> {
  const ids = [...new Set(report.jobs.flatMap((j) => (j.repo !== undefined ? [j.repo] : [])))];
  const out: CampaignRepoRef[] = [];
  for (const id of ids) {
    if (isAbsolute(id)) {
      out.push({ id, dir: id, url: null });
      continue;
    }
    const dir = clonePath(cacheDir, { id, url: '', path: null, ref: null });
    if (!existsSync(join(dir, 'HEAD'))) {
      throw new UsageError(`The report's repository ${id} has no clone in ${cacheDir}; pass --cache-dir with the folder the run used (its --cache-dir).`);
    }
    const repo = await openRepo(dir);
    let url: string | null;
    try {
      url = remoteUrl(repo, 'origin');
    } finally {
      closeRepo(repo);
    }
    if (url === null) throw new UsageError(`The clone ${dir} of ${id} names no URL (remote.origin.url); run the campaign again to clone it anew.`);
    out.push({ id, dir, url, branch: headBranch(dir) });
  }
  return out;
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
