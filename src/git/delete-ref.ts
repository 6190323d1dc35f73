// Deleting a ref the way git's files backend does (refs/files-backend.c, refs/packed-backend.c), so
// scion is safe beside a native git in the same repository:
//  1. take <ref>.lock, then read the ref under it and compare with what the caller expects;
//  2. take packed-refs.lock (always, as git does: a held one makes the deletion fail, changing nothing);
//  3. delete the ref's reflog (a reflog without its ref is the worse leftover, so it goes first);
//  4. when packed-refs holds the ref, write packed-refs.new without it and rename that over packed-refs,
//     still under packed-refs.lock;
//  5. delete the loose ref; release both locks (packed-refs.lock last: until the loose ref is gone, a
//     `git pack-refs` must not copy it back into packed-refs);
//  6. remove the folders the ref and its reflog leave empty (never refs/heads itself).
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import type { ScionError } from '../errors.js';
import { dirname, join } from 'node:path';
import { errnoCode, gitError, isGitError, onDisk } from './errors.js';
import { isOid } from './hash.js';
import { takeRefLock } from './ref-lock.js';
import { currentValue, isValidRefName, refPath } from './refs.js';
import { assertWritable, type Repo } from './repo.js';

const NOTHING = new Uint8Array(0);

/**
 * Deletes `ref` (a full name under refs/, loose or packed or both) if it holds `expectedOld`, with its
 * reflog. Throws error `ref-moved` when it holds anything else or nothing (nothing is changed),
 * `locked` when another process holds <ref>.lock or packed-refs.lock (one a killed scion left is
 * cleared: see ref-lock.ts), `bad-ref` for an invalid name or a symbolic ref, `environment` when the
 * machine refuses a write.
 */
export async function deleteRef(repo: Repo, ref: string, expectedOld: string): Promise<void> {
  if (!isValidRefName(ref)) {
    throw gitError('bad-ref', `"${ref}" is not a ref name git accepts (it must start with refs/ and pass \`git check-ref-format\`).`, { ref });
  }
  if (!isOid(expectedOld)) throw gitError('invalid-argument', `"${expectedOld}" is not a full object id.`, { oid: expectedOld });
  assertWritable(repo);
  const path = refPath(repo, ref);
  // The git dir the ref lives in (the common one, or a worktree's for per-worktree refs); its reflog is there too.
  const gitDir = path.slice(0, path.length - ref.length - 1);
  // A ref that is not there needs no lock to be found missing, and its folder may not exist at all.
  if (currentValue(repo, ref) === null) throw moved(ref, expectedOld, null);
  // A ref only packed has no folder of its own yet: git creates it to hold the lock, and removes it after.
  onDisk(dirname(path), 'create the ref folder', () => mkdirSync(dirname(path), { recursive: true }));
  const held = await takeRefLock(repo, ref, `${path}.lock`, NOTHING);
  try {
    const current = currentValue(repo, ref);
    if (current !== null && 'symbolic' in current) {
      throw gitError('bad-ref', `${ref} is a symbolic ref to ${current.symbolic}; delete that ref instead.`, { ref });
    }
    const actual = current?.oid ?? null;
    if (actual !== expectedOld) throw moved(ref, expectedOld, actual);
    const packedPath = join(repo.commonDir, 'packed-refs');
    const packedLock = await takeRefLock(repo, ref, `${packedPath}.lock`, NOTHING);
    try {
      const log = join(gitDir, 'logs', ref);
      onDisk(log, 'delete the reflog', () => unlinkIfThere(log));
      const text = readIfThere(packedPath);
      const without = text === null ? null : packedWithout(text, ref);
      if (without !== null) onDisk(packedPath, 'rewrite packed-refs', () => replaceFile(packedPath, without));
      onDisk(path, 'delete the ref', () => unlinkIfThere(path));
    } finally {
      packedLock.release();
    }
  } finally {
    held.release();
  }
  removeEmptyParents(join(gitDir, 'logs'), ref);
  removeEmptyParents(gitDir, ref);
}

/**
 * Deletes `ref` when it still holds `expected`: true when it went, false when it moved (or went)
 * meanwhile and was left alone. Other failures (a held lock, a refusing disk) are thrown.
 */
export async function deleteRefIfAt(repo: Repo, ref: string, expected: string): Promise<boolean> {
  try {
    await deleteRef(repo, ref, expected);
    return true;
  } catch (e) {
    if (isGitError(e, 'ref-moved')) return false;
    throw e;
  }
}

function moved(ref: string, expected: string, actual: string | null): ScionError {
  const found = actual ?? 'no such ref';
  const message = `${ref} moved: expected ${expected}, found ${found}. Another process updated it; look at it again before deleting it.`;
  return gitError('ref-moved', message, { ref, expected, actual });
}

/**
 * packed-refs' text without `ref`'s line and the peeled (`^`) line under it; null when it does not
 * hold the ref (the file is then left as it is). Every other line is kept byte for byte.
 */
export function packedWithout(text: string, ref: string): string | null {
  const lines = text.split('\n');
  const out: string[] = [];
  let found = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.length > 41 && line[40] === ' ' && isOid(line.slice(0, 40)) && line.slice(41) === ref) {
      found = true;
      while (lines[i + 1]?.startsWith('^')) i++;
      continue;
    }
    out.push(line);
  }
  return found ? out.join('\n') : null;
}

/** Writes `<path>.new` whole (fsynced), then renames it over `path`, as packed-backend.c does under packed-refs.lock. */
function replaceFile(path: string, content: string): void {
  const tmp = `${path}.new`;
  // Only the holder of packed-refs.lock writes packed-refs.new: one there now was left by a writer killed half-way.
  unlinkIfThere(tmp);
  const fd = openSync(tmp, 'wx', 0o666);
  try {
    const buf = Buffer.from(content, 'utf8');
    writeSync(fd, buf, 0, buf.length);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (err) {
    unlinkIfThere(tmp);
    throw err;
  }
}

function readIfThere(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return null;
    throw err;
  }
}

function unlinkIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') throw err;
  }
}

/**
 * Removes the folders under `root` that `ref`'s deletion left empty, deepest first, keeping the first
 * two components (refs/heads), as git's try_remove_empty_parents does. A folder that is not empty
 * (another ref, another process's lock) ends the walk.
 */
function removeEmptyParents(root: string, ref: string): void {
  const parts = ref.split('/');
  for (let n = parts.length - 1; n > 2; n--) {
    try {
      rmdirSync(join(root, ...parts.slice(0, n)));
    } catch {
      return;
    }
  }
}
