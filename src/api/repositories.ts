// The repositories a report's jobs live in: the report's own repository, or each repository of a
// campaign report (a local path, or a clone in the cache, made again where it is missing).
import { resolve } from 'node:path';
import { defaultCacheDir } from '../campaign/clone-cache.js';
import { isCampaignReport, reposOfReport } from '../campaign/locate.js';
import type { RunReport } from '../model/types.js';
import type { CampaignRepoRef } from '../publish/campaign.js';
import type { Env } from '../host/remote.js';

export { isCampaignReport };

export interface CampaignRepos {
  readonly repos: readonly CampaignRepoRef[];
  /** One sentence per repository that could not be found nor cloned (`<repo>: …`). */
  readonly problems: readonly string[];
}

/** The repositories of a campaign report; `cacheDir` (relative to `cwd`) defaults to the campaign cache. */
export async function campaignRepos(report: RunReport, o: { readonly cacheDir?: string; readonly cwd: string; readonly env: Env }): Promise<CampaignRepos> {
  const cacheDir = o.cacheDir !== undefined ? resolve(o.cwd, o.cacheDir) : defaultCacheDir(o.env);
  return reposOfReport(report, { cacheDir, env: o.env });
}

/** The cache directory of campaigns' clones: `dir` relative to `cwd`, else $XDG_CACHE_HOME/scion/repos or ~/.cache/scion/repos. */
export function cacheDirOf(dir: string | undefined, cwd: string, env: Env): string {
  return dir !== undefined ? resolve(cwd, dir) : defaultCacheDir(env);
}
