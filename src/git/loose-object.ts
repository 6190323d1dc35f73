// Loose objects (objects/xx/yyyy…): one zlib stream of "<type> <size>\0<data>" per file. Read from
// the first of an object store's folders that has it; written through a temp file in the same
// folder and a rename, so a concurrent reader never sees half an object.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { errnoCode, gitError, onDisk, refusalToGitError } from './errors.js';
import { objectHeader, type ObjectType } from './hash.js';
import type { RawObject } from './pack.js';
import { raceproofCreate } from './raceproof.js';

/** The object `oid` from the first of `dirs` (objects folders) holding it loose, or null; a damaged file is `corrupt`. */
export function readLoose(dirs: readonly string[], oid: string): RawObject | null {
  for (const d of dirs) {
    let file: Buffer;
    try {
      file = readFileSync(join(d, oid.slice(0, 2), oid.slice(2)));
    } catch (err) {
      if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') continue;
      throw err;
    }
    return parseLoose(oid, inflateLoose(oid, file));
  }
  return null;
}

/** Writes object `oid` (`type`, `content`) loose under `objectsDir`, at zlib level 1 (git's core.looseCompression default). */
export function writeLoose(objectsDir: string, oid: string, type: ObjectType, content: Uint8Array): void {
  const dir = join(objectsDir, oid.slice(0, 2));
  const body = deflateSync(Buffer.concat([objectHeader(type, content.length), content]), { level: 1 });
  const tmp = openTemp(dir);
  onDisk(tmp.path, 'write the object file', () => {
    try {
      let done = 0;
      while (done < body.length) done += writeSync(tmp.fd, body, done, body.length - done);
    } finally {
      closeSync(tmp.fd);
    }
  });
  try {
    renameSync(tmp.path, join(dir, oid.slice(2)));
  } catch (err) {
    rmSync(tmp.path, { force: true });
    throw refusalToGitError(err, join(dir, oid.slice(2)), 'write the object file');
  }
}

/**
 * Opens a new temp file in objects/xx/, git's way (object-file.c `create_tmpfile`): a concurrent
 * `git prune-packed` (run by `git gc` and `git repack -d`) removes empty objects/xx/ folders, so the
 * folder is made again when it is missing (see raceproof.ts).
 */
function openTemp(dir: string): { fd: number; path: string } {
  // git's own temp-file prefix: `git prune` removes stale ones.
  const path = join(dir, `tmp_obj_${process.pid}_${randomBytes(6).toString('hex')}`);
  try {
    return raceproofCreate(dir, () => ({ fd: openSync(path, 'wx', 0o444), path }));
  } catch (err) {
    throw refusalToGitError(err, path, 'create the object file');
  }
}

function inflateLoose(oid: string, file: Buffer): Buffer {
  try {
    return inflateSync(file);
  } catch (err) {
    throw gitError('corrupt', `Loose object ${oid} is damaged (${(err as Error).message}); run \`git fsck\`.`, { oid });
  }
}

function parseLoose(oid: string, buf: Buffer): RawObject {
  const nul = buf.indexOf(0);
  const [type, size] = buf.toString('latin1', 0, Math.max(nul, 0)).split(' ');
  const data = buf.subarray(nul + 1);
  if (nul < 0 || !['commit', 'tree', 'blob', 'tag'].includes(type ?? '') || Number(size) !== data.length) {
    throw gitError('corrupt', `Loose object ${oid} has a bad header; run \`git fsck\`.`, { oid });
  }
  return { type: type as ObjectType, data };
}
