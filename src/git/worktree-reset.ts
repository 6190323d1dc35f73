// Putting a linked worktree at a tree, so another job can use it (or so it sits clean while idle):
// every tracked file as the tree has it, and nothing else (untracked files, ignored build output,
// folders a command made: all removed), the index at that tree, and HEAD detached at the commit
// when one is named (else left where it is). The old index serves as git's stat cache: a file whose
// stat data still matches its entry (and is not racily clean) is taken as unchanged without reading
// it, so only what differs is hashed or written; a file already holding the new tree's content (a
// job's result on disk) is hashed once and kept.
import { lstatSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { breather } from './breather.js';
import { checkoutEntries, checkStopped } from './checkout.js';
import { gitError } from './errors.js';
import { hashBlob, isOid } from './hash.js';
import { readIndexFile, statData, writeIndexFile, ZERO_STAT, type IndexEntry, type IndexFile } from './index-file.js';
import type { TreeEntry } from './list-tree.js';
import { writeFileLocked } from './lockfile.js';
import { parentDir } from './paths.js';
import type { Repo } from './repo.js';
import type { Worktree } from './worktree-admin.js';
import { diskMode, statMatches } from './worktree-changes.js';

export interface ResetCounts {
  /** Tracked files written again (changed, deleted or replaced by something else). */
  readonly written: number;
  /** Paths the tree does not have that were removed (a folder counts once). */
  readonly removed: number;
}

export interface ResetOptions {
  /** The commit whose tree `entries` is: HEAD is detached there once the files and the index are. */
  commit?: string;
  /**
   * Stops the reset between files (kind `interrupted`): the worktree is then half reset, and the
   * caller removes it.
   */
  signal?: AbortSignal;
}

/** `entries`: the tree to put the worktree at (its HEAD's, or `o.commit`'s), as listTree gives it. */
export async function resetWorktree(repo: Repo, wt: Worktree, entries: readonly TreeEntry[], o: ResetOptions = {}): Promise<ResetCounts> {
  if (o.commit !== undefined && !isOid(o.commit)) throw gitError('invalid-argument', `"${o.commit}" is not a full commit id.`);
  const tree = new Map(entries.map((e) => [e.path, e]));
  const dirs = new Set<string>();
  for (const e of entries) for (let d = parentDir(e.path); d !== '' && !dirs.has(d); d = parentDir(d)) dirs.add(d);
  const old = readIndexFile(join(wt.adminDir, 'index'));
  const kept = new Map<string, IndexEntry>();
  const pause = breather();
  let removed = 0;

  const walk = async (dir: string): Promise<void> => {
    const absDir = dir === '' ? wt.path : join(wt.path, dir);
    for (const d of readdirSync(absDir, { withFileTypes: true })) {
      // The worktree's own link to its admin folder (written again below).
      if (dir === '' && d.name === '.git') continue;
      const rel = dir === '' ? d.name : `${dir}/${d.name}`;
      const abs = join(absDir, d.name);
      const e = tree.get(rel);
      if (d.isDirectory() && e?.mode === '160000') {
        // A submodule is checked out as an empty folder: whatever a command put inside goes.
        for (const inner of readdirSync(abs)) rmSync(join(abs, inner), { recursive: true, force: true });
        kept.set(rel, { path: rel, oid: e.oid, mode: 0o160000, stat: ZERO_STAT });
      } else if (d.isDirectory() && dirs.has(rel)) {
        await walk(rel);
      } else if (e !== undefined && e.mode !== '160000' && (d.isFile() || d.isSymbolicLink())) {
        // A file that differs is left for the checkout below, which replaces it.
        const same = unchangedEntry(abs, e, old);
        if (same !== null) kept.set(rel, same);
      } else {
        rmSync(abs, { recursive: true, force: true });
        removed++;
      }
      const p = pause();
      if (p) await p;
      checkStopped(o.signal, `The reset of ${wt.path}`);
    }
  };
  await walk('');
  writeFileSync(join(wt.path, '.git'), `gitdir: ${wt.adminDir}\n`);
  const missing = entries.filter((e) => !kept.has(e.path));
  const written = await checkoutEntries(repo, wt.path, missing, { replace: true, ...(o.signal ? { signal: o.signal } : {}) });
  writeIndexFile(join(wt.adminDir, 'index'), [...kept.values(), ...written]);
  if (o.commit !== undefined) writeFileLocked(join(wt.adminDir, 'HEAD'), `${o.commit}\n`);
  return { written: missing.filter((e) => e.mode !== '160000').length, removed };
}

/** The index entry of a file that still holds exactly `e` (its stat data refreshed), else null. */
function unchangedEntry(abs: string, e: TreeEntry, index: IndexFile | null): IndexEntry | null {
  const st = lstatSync(abs, { bigint: true });
  if (diskMode(st) !== e.mode) return null;
  const mode = parseInt(e.mode, 8);
  const cached = index?.entries.get(e.path);
  if (cached && index && cached.oid === e.oid && cached.mode === mode && statMatches(cached, statData(st)) && st.mtimeNs < index.mtimeNs) return cached;
  return hashBlob(contentOf(abs, st)) === e.oid ? { path: e.path, oid: e.oid, mode, stat: statData(st) } : null;
}

function contentOf(abs: string, st: BigIntStats): Buffer {
  return st.isSymbolicLink() ? readlinkSync(abs, { encoding: 'buffer' }) : readFileSync(abs);
}
