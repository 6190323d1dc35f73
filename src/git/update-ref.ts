// Moving a ref the way git does, so scion is safe beside a native git in the same repository:
// take <ref>.lock (holding the new value, fsynced), re-read the current value (loose or packed)
// under the lock, compare with what the caller expects, then rename the lock over the ref.
import { appendFileSync, existsSync, lstatSync, mkdirSync, rmdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { configValue } from './config.js';
import type { ScionError } from '../errors.js';
import { gitError, onDisk } from './errors.js';
import { raceproofCreate } from './raceproof.js';
import { takeRefLock } from './ref-lock.js';
import { isOid, ZERO_OID } from './hash.js';
import { formatIdentity, type Identity } from './identity-format.js';
import { currentValue, isValidRefName, packedRefs, refPath } from './refs.js';
import { assertWritable, repoState, type Repo } from './repo.js';

export interface UpdateRefOptions {
  /**
   * Append a reflog entry (logs/<ref>) so `git reflog` can show and undo the move, where git's
   * core.logAllRefUpdates would (default: branches of non-bare repositories; a ref whose log
   * already exists, always).
   */
  log?: { who: Identity; message: string };
  /**
   * The run's interrupt: checked under the lock, right before the ref is written, so a ref never
   * moves once it has fired (error `interrupted`: the ref as it was, the lock removed).
   */
  signal?: AbortSignal;
}

/**
 * Sets `ref` (a full name under refs/) to `newOid` if it currently holds `expectedOld` (null: the
 * ref must not exist). Throws error `locked` when another process holds the lock (one a killed
 * scion left behind is cleared: see ref-lock.ts), `ref-moved`
 * when the ref changed under us, `bad-ref` for an invalid or clashing name. Never touches HEAD.
 */
export async function updateRef(repo: Repo, ref: string, newOid: string, expectedOld: string | null, opts: UpdateRefOptions = {}): Promise<void> {
  if (!isValidRefName(ref)) {
    throw gitError('bad-ref', `"${ref}" is not a ref name git accepts (it must start with refs/ and pass \`git check-ref-format\`).`, { ref });
  }
  for (const oid of [newOid, expectedOld]) {
    if (oid !== null && !isOid(oid)) throw gitError('invalid-argument', `"${oid}" is not a full object id.`, { oid });
  }
  assertWritable(repo);
  const store = repoState(repo).store;
  if (!store.has(newOid)) throw gitError('missing-object', `Cannot point ${ref} at ${newOid}: no such object.`, { ref, oid: newOid });
  if (ref.startsWith('refs/heads/') && store.read(newOid).type !== 'commit') {
    throw gitError('invalid-argument', `Cannot point branch ${ref} at ${newOid}: it is not a commit.`, { ref, oid: newOid });
  }

  const path = refPath(repo, ref);
  const lock = `${path}.lock`;
  prepareDir(repo, ref, path, expectedOld === null);
  // Taken with its content already in it, never empty (see ref-lock.ts); a lock a killed scion
  // left is cleared here, any other is kind `locked`.
  const held = await takeRefLock(repo, ref, lock, Buffer.from(`${newOid}\n`, 'latin1'), { signal: opts.signal });
  try {
    if (opts.signal) {
      // A signal handler runs only when the event loop turns, and the work that led here (the job's
      // last objects, the lock written and synced to disk) may all have been synchronous: one turn
      // under the lock lets an interrupt sent meanwhile reach the check just before the ref moves.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const current = currentValue(repo, ref);
    if (current && 'symbolic' in current) {
      throw gitError('bad-ref', `${ref} is a symbolic ref to ${current.symbolic}; update that ref instead.`, { ref });
    }
    const actual = current?.oid ?? null;
    if (actual !== expectedOld) {
      throw gitError(
        'ref-moved',
        `${ref} moved: expected ${expectedOld ?? 'no such ref'}, found ${actual ?? 'no such ref'}. Another process updated it; run again to start ` +
          `from its new value.`,
        { ref, expected: expectedOld, actual },
      );
    }
    if (opts.signal?.aborted) throw gitError('interrupted', `${ref} was not moved: the run was interrupted.`, { ref });
    if (opts.log && shouldLog(repo, ref))
      onDisk(join(repo.commonDir, 'logs', ref), 'append to the reflog', () => appendReflog(repo, ref, actual, newOid, opts.log!));
    held.commit(path);
  } catch (err) {
    held.release();
    throw err;
  }
}

/** Creates the ref's folder, refusing names that clash with an existing ref (a/b vs a). */
function prepareDir(repo: Repo, ref: string, path: string, creating: boolean): void {
  const clash = (other: string): ScionError =>
    gitError('bad-ref', `Cannot create ${ref}: ${other} exists, and git cannot hold both; choose another branch name.`, { ref, other });
  const parts = ref.split('/');
  for (let i = 2; i < parts.length; i++) {
    const prefix = parts.slice(0, i).join('/');
    if (lstatSync(join(repo.commonDir, prefix), { throwIfNoEntry: false })?.isFile()) throw clash(prefix);
  }
  if (creating) {
    for (const name of packedRefs(repo).keys()) {
      if (name.startsWith(`${ref}/`) || ref.startsWith(`${name}/`)) throw clash(name);
    }
    if (lstatSync(path, { throwIfNoEntry: false })?.isDirectory()) {
      try {
        // An empty folder left by deleted refs is no clash (git removes it too).
        rmdirSync(path);
      } catch {
        throw clash(`${ref}/…`);
      }
    }
  }
  onDisk(dirname(path), 'create the ref folder', () => mkdirSync(dirname(path), { recursive: true }));
}

/** git's core.logAllRefUpdates: "always", true (branches, remotes, notes, HEAD), false; default true unless bare. */
function shouldLog(repo: Repo, ref: string): boolean {
  const config = repoState(repo).config;
  const v = configValue(config, 'core', 'logallrefupdates');
  const bare = configValue(config, 'core', 'bare');
  const on =
    v === undefined ? !(bare === true || (typeof bare === 'string' && /^(true|yes|on|1)$/i.test(bare))) : v === true || /^(true|yes|on|1|always)$/i.test(v);
  if (typeof v === 'string' && v.toLowerCase() === 'always') return true;
  if (on && /^(refs\/heads\/|refs\/remotes\/|refs\/notes\/|HEAD$)/.test(ref)) return true;
  // Whatever the setting, a ref that already has a log keeps getting entries.
  return existsSync(join(repo.commonDir, 'logs', ref));
}

function appendReflog(repo: Repo, ref: string, oldOid: string | null, newOid: string, log: { who: Identity; message: string }): void {
  const path = join(repo.commonDir, 'logs', ref);
  const message = log.message.replace(/\s*\n\s*/g, ' ').trim();
  raceproofCreate(dirname(path), () => appendFileSync(path, `${oldOid ?? ZERO_OID} ${newOid} ${formatIdentity(log.who)}\t${message}\n`));
}

/**
 * Points the symbolic ref `name` (HEAD, or a full ref name) at the ref `target`, under <name>.lock as
 * `git symbolic-ref` does (which compares nothing either). Throws error `locked` while another
 * process holds the lock, `bad-ref` for a target git would not accept.
 */
export async function setSymbolicRef(repo: Repo, name: string, target: string): Promise<void> {
  for (const ref of [name, target]) {
    if (ref !== 'HEAD' && !isValidRefName(ref)) {
      throw gitError('bad-ref', `"${ref}" is not a ref name git accepts (it must start with refs/ and pass \`git check-ref-format\`).`, { ref });
    }
  }
  assertWritable(repo);
  const path = refPath(repo, name);
  const held = await takeRefLock(repo, name, `${path}.lock`, Buffer.from(`ref: ${target}\n`, 'utf8'));
  try {
    held.commit(path);
  } catch (err) {
    held.release();
    throw err;
  }
}
