// Object ids: SHA-1 over "<type> <size>\0<content>", the same bytes git hashes.
import { createHash } from 'node:crypto';

export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';

export function objectHeader(type: ObjectType, size: number): Buffer {
  return Buffer.from(`${type} ${size}\0`, 'latin1');
}

export function hashObject(type: ObjectType, content: Uint8Array): string {
  return createHash('sha1').update(objectHeader(type, content.length)).update(content).digest('hex');
}

/** The oid git would give these bytes as a blob, without writing anything (dry run). */
export function hashBlob(bytes: Uint8Array): string {
  return hashObject('blob', bytes);
}

export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
export const ZERO_OID = '0000000000000000000000000000000000000000';

const OID = /^[0-9a-f]{40}$/;
export function isOid(s: string): boolean {
  return OID.test(s);
}
