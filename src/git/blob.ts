// Blob contents in and out of the object store.
import { gitError } from './errors.js';
import { assertWritable, repoState, type Repo } from './repo.js';

export async function readBlob(repo: Repo, oid: string): Promise<Uint8Array> {
  return readBlobSync(repo, oid);
}

/** The caller's own buffer: one the store's cache holds comes as a copy, so no caller can change the cache. */
export function readBlobSync(repo: Repo, oid: string): Buffer {
  const obj = repoState(repo).store.read(oid, true);
  if (obj.type !== 'blob') throw gitError('invalid-argument', `${oid} is a ${obj.type}, not a blob.`, { oid });
  return obj.data;
}

export async function writeBlob(repo: Repo, bytes: Uint8Array): Promise<string> {
  assertWritable(repo);
  return repoState(repo).store.write('blob', bytes);
}
