// Is a cached clone still a repository scion can work in? A clone damaged on disk (a pack cut short,
// objects or HEAD gone: a full disk, a crash, a cleaner) would otherwise fail every run that reaches
// it, with advice about URLs and tokens. And the temporary folders of clones killed half-way, which
// nothing else would ever remove.
import { readdir, readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { closeRepo, openRepo, readCommit, readRef } from '../git/index.js';

/** Why the clone in `dir` cannot be used, in a few words; null when its branch's commit reads. */
export async function cloneDamage(dir: string): Promise<string | null> {
  let head: string;
  try {
    head = (await readFile(join(dir, 'HEAD'), 'utf8')).trim();
  } catch (e) {
    return `its HEAD cannot be read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
  }
  const ref = /^ref: (refs\/heads\/\S+)$/.exec(head)?.[1] ?? null;
  if (ref === null && !/^[0-9a-f]{40}$/.test(head)) return `its HEAD holds "${head.slice(0, 40)}"`;
  try {
    const repo = await openRepo(dir);
    try {
      const sha = ref === null ? head : await readRef(repo, ref);
      if (sha === null) return `its HEAD names ${ref}, which it lacks`;
      await readCommit(repo, sha);
    } finally {
      closeRepo(repo);
    }
  } catch (e) {
    return (e instanceof Error ? e.message : String(e)).split('\n')[0]!;
  }
  return null;
}

/**
 * Removes `<clone>.tmp-*`: clones cut short by a killed run. Called under the repository's lock, so
 * no live run is writing one of them.
 */
export async function removeStaleTemps(dir: string): Promise<void> {
  const prefix = `${basename(dir)}.tmp-`;
  const names = await readdir(dirname(dir)).catch(() => [] as string[]);
  for (const name of names) if (name.startsWith(prefix)) await rm(join(dirname(dir), name), { recursive: true, force: true });
}
