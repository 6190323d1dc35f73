// Writing tree entries to disk the way `git checkout` does (regular files with the executable bit,
// symlinks as symlinks, submodules as empty folders) and returning index entries with the stat
// data of what was written, so `git status` afterwards trusts the files without hashing them.
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, rmSync, symlinkSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { breather } from './breather.js';
import { errnoCode, gitError } from './errors.js';
import { statData, ZERO_STAT, type IndexEntry, type StatData } from './index-file.js';
import type { TreeEntry } from './list-tree.js';
import { assertValidPath, comparePaths, parentDir } from './paths.js';
import { repoState, type Repo } from './repo.js';
import { WritePool, writePool } from './write-pool.js';

export interface CheckoutOptions {
  /** Whatever is at an entry's path (or in the way of its folder) is replaced. Default false: fresh folder. */
  replace?: boolean;
  /**
   * Stops the checkout between files (the workers finish the batches they hold): it throws kind
   * `interrupted` with `data.done`/`data.total`, and the caller removes what was written.
   */
  signal?: AbortSignal;
}

/** Throws kind `interrupted` once `signal` fired; `files`: how many of how many files were handed out to be written. */
export function checkStopped(signal: AbortSignal | undefined, what: string, files?: { done: number; total: number }): void {
  if (signal?.aborted !== true) return;
  const after = files === undefined ? '' : ` after ${files.done} of ${files.total} files`;
  throw gitError('interrupted', `${what} was stopped${after}.`, files === undefined ? {} : { ...files }, signal.reason);
}

export async function checkoutEntries(repo: Repo, root: string, entries: readonly TreeEntry[], opts: CheckoutOptions = {}): Promise<IndexEntry[]> {
  const store = repoState(repo).store;
  const pause = breather();
  const dirs = new Set<string>();
  for (const e of entries) {
    assertValidPath(e.path);
    for (let d = parentDir(e.path); d !== '' && !dirs.has(d); d = parentDir(d)) dirs.add(d);
  }
  const stopped = (done: number) => checkStopped(opts.signal, `The checkout into ${root}`, { done, total: entries.length });
  // Parents sort before their children, so each mkdir finds its parent in place.
  for (const d of [...dirs].sort(comparePaths)) {
    ensureDir(join(root, d), opts.replace === true);
    const p = pause();
    if (p) await p;
    stopped(0);
  }
  const regular = entries.reduce((n, e) => n + (e.mode === '100644' || e.mode === '100755' ? 1 : 0), 0);
  const pool = writePool.workers > 0 && regular >= writePool.minFiles ? new WritePool(opts.replace === true) : null;
  const out: (IndexEntry | null)[] = [];
  try {
    for (const e of entries) {
      stopped(out.length);
      const abs = join(root, e.path);
      const regularFile = e.mode === '100644' || e.mode === '100755';
      // The pool clears what is in the way of the files it writes; the rest is cleared here.
      if (opts.replace && !(pool && regularFile)) clearPath(abs, e.mode === '160000');
      if (e.mode === '160000') {
        ensureDir(abs, false);
        out.push({ path: e.path, oid: e.oid, mode: 0o160000, stat: ZERO_STAT });
        continue;
      }
      const obj = store.read(e.oid);
      if (obj.type !== 'blob') throw gitError('corrupt', `${e.path} points at a ${obj.type}, not a blob.`, { path: e.path });
      if (e.mode === '120000') {
        symlinkSync(obj.data, abs);
        out.push({ path: e.path, oid: e.oid, mode: 0o120000, stat: statData(lstatSync(abs, { bigint: true })) });
      } else if (pool) {
        // Written by a worker: the stat data is filled in when the pool is done.
        await pool.add({ i: out.length, abs, data: obj.data, exec: e.mode === '100755' });
        out.push(null);
      } else {
        out.push(writeFile(abs, e, obj.data));
      }
      const p = pause();
      if (p) await p;
    }
  } catch (err) {
    await pool?.abort();
    throw err;
  }
  if (!pool) return out as IndexEntry[];
  const stats = await pool.finish();
  return out.map((x, i) => {
    if (x !== null) return x;
    const e = entries[i] as TreeEntry;
    return { path: e.path, oid: e.oid, mode: e.mode === '100755' ? 0o100755 : 0o100644, stat: stats.get(i) as StatData };
  });
}

function writeFile(abs: string, e: TreeEntry, data: Buffer): IndexEntry {
  const exec = e.mode === '100755';
  const fd = openSync(abs, 'wx', exec ? 0o777 : 0o666);
  try {
    for (let done = 0; done < data.length;) done += writeSync(fd, data, done, data.length - done);
    // fstat before close: the same mtime/ctime the file keeps, without a path lookup.
    return { path: e.path, oid: e.oid, mode: exec ? 0o100755 : 0o100644, stat: statData(fstatSync(fd, { bigint: true })) };
  } finally {
    closeSync(fd);
  }
}

/** mkdir that, when replacing, removes a file or symlink standing where the folder must be. */
function ensureDir(abs: string, replace: boolean): void {
  try {
    mkdirSync(abs);
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') throw err;
    if (lstatSync(abs).isDirectory()) return;
    if (!replace) throw err;
    unlinkSync(abs);
    mkdirSync(abs);
  }
}

function clearPath(abs: string, keepDir: boolean): void {
  const st = lstatSync(abs, { throwIfNoEntry: false });
  if (!st) return;
  if (st.isDirectory()) {
    if (!keepDir) rmSync(abs, { recursive: true, force: true });
  } else {
    unlinkSync(abs);
  }
}
