// Moving a worktree to a commit made at object level: HEAD on the branch (or detached), the index
// rewritten for the new head tree, and the files that tree changed brought onto disk. Index entries
// whose oid and mode did not change keep their stat data (git re-checks it against the disk), so
// only changed paths are read, hashed or written.
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmdirSync, unlinkSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { checkoutEntries } from './checkout.js';
import { errnoCode, gitError } from './errors.js';
import { hashBlob, isOid } from './hash.js';
import { readIndexFile, statData, writeIndexFile, ZERO_STAT, type IndexEntry, type IndexFile } from './index-file.js';
import type { TreeEntry } from './list-tree.js';
import { writeFileLocked } from './lockfile.js';
import { isValidRefName, readRefSync } from './refs.js';
import type { Repo } from './repo.js';
import { branchCheckedOutSync, type Worktree } from './worktree-admin.js';
import { diskMode, statMatches } from './worktree-changes.js';
import { parentDir } from './paths.js';

export interface WorktreeHead {
  /** Short branch name; it must already point at `commit`. Omitted: detached HEAD. */
  branch?: string;
  commit: string;
  /** The tree of `commit`, as listTree gives it. */
  entries: readonly TreeEntry[];
}

export async function setWorktreeHead(repo: Repo, wt: Worktree, o: WorktreeHead): Promise<void> {
  if (!isOid(o.commit)) throw gitError('invalid-argument', `"${o.commit}" is not a full commit id.`);
  let head = `${o.commit}\n`;
  if (o.branch !== undefined) {
    const ref = `refs/heads/${o.branch}`;
    if (!isValidRefName(ref)) throw gitError('bad-ref', `"${o.branch}" is not a valid branch name.`, { ref });
    const at = readRefSync(repo, ref);
    if (at !== o.commit)
      throw gitError('invalid-argument', `Branch ${o.branch} points at ${at ?? 'nothing'}, not ${o.commit}; move it first (updateRef).`, { ref });
    const elsewhere = branchCheckedOutSync(repo, ref);
    if (elsewhere !== null && elsewhere !== wt.path) {
      throw gitError('in-use', `Branch ${o.branch} is already checked out at ${elsewhere}.`, { ref, path: elsewhere });
    }
    head = `ref: ${ref}\n`;
  }
  const indexPath = join(wt.adminDir, 'index');
  const old = readIndexFile(indexPath);
  const next: IndexEntry[] = [];
  const toWrite: TreeEntry[] = [];
  for (const e of o.entries) {
    if (e.mode === '160000') {
      mkdirSync(join(wt.path, e.path), { recursive: true });
      next.push({ path: e.path, oid: e.oid, mode: 0o160000, stat: ZERO_STAT });
      continue;
    }
    const prev = old?.entries.get(e.path);
    const mode = parseInt(e.mode, 8);
    const onDisk = (): ReturnType<typeof matchingDiskStat> => matchingDiskStat(join(wt.path, e.path), e);
    if (prev && old && prev.oid === e.oid && prev.mode === mode) {
      // The head did not change this path: whatever is on disk stays. Kept stat data is only as
      // good as the old index, so a racily clean entry is checked again; if the file differs, a
      // zeroed stat makes git hash it and show it as modified (git "smudges" entries the same way).
      next.push(entryMtimeNs(prev) < old.mtimeNs ? prev : { ...prev, stat: onDisk() ?? ZERO_STAT });
      continue;
    }
    const matching = onDisk();
    if (matching) next.push({ path: e.path, oid: e.oid, mode, stat: matching });
    else toWrite.push(e);
  }
  next.push(...(await checkoutEntries(repo, wt.path, toWrite, { replace: true })));
  if (old) removeDropped(wt.path, old, new Set(o.entries.map((e) => e.path)));
  writeIndexFile(indexPath, next);
  writeFileLocked(join(wt.adminDir, 'HEAD'), head);
}

function entryMtimeNs(e: IndexEntry): bigint {
  return BigInt(e.stat.mtimeSec) * 1_000_000_000n + BigInt(e.stat.mtimeNsec);
}

/** Stat data of the file at `abs` when it already holds exactly `e`, else null. */
function matchingDiskStat(abs: string, e: TreeEntry): ReturnType<typeof statData> | null {
  const st = lstatSync(abs, { bigint: true, throwIfNoEntry: false });
  if (!st || (!st.isFile() && !st.isSymbolicLink()) || diskMode(st) !== e.mode) return null;
  const bytes = st.isSymbolicLink() ? readlinkSync(abs, { encoding: 'buffer' }) : readFileSync(abs);
  return hashBlob(bytes) === e.oid ? statData(st) : null;
}

/** lstat, or undefined when the path is gone, also because a file of the new head stands where its folder was. */
function lstatOrGone(abs: string): BigIntStats | undefined {
  try {
    return lstatSync(abs, { bigint: true, throwIfNoEntry: false });
  } catch (err) {
    if (errnoCode(err) === 'ENOTDIR') return undefined;
    throw err;
  }
}

/** Deletes files the new head no longer has, unless they were changed since the old index. */
function removeDropped(root: string, old: IndexFile, keep: ReadonlySet<string>): void {
  const dirs = new Set<string>();
  for (const [path, entry] of old.entries) {
    if (keep.has(path) || entry.mode === 0o160000) continue;
    const abs = join(root, path);
    const st = lstatOrGone(abs);
    if (!st || st.isDirectory()) continue;
    // A stat match proves nothing for a racily clean entry: then only the content can tell.
    const unchanged =
      (statMatches(entry, statData(st)) && entryMtimeNs(entry) < old.mtimeNs) ||
      hashBlob(st.isSymbolicLink() ? readlinkSync(abs, { encoding: 'buffer' }) : readFileSync(abs)) === entry.oid;
    if (!unchanged) continue;
    unlinkSync(abs);
    for (let d = parentDir(path); d !== ''; d = parentDir(d)) dirs.add(d);
  }
  // Deepest first, so a folder emptied by its child's removal goes too.
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
    const abs = join(root, d);
    try {
      if (readdirSync(abs).length === 0) rmdirSync(abs);
    } catch {
      // Already gone or not a folder.
    }
  }
}
