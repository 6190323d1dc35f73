// What every isomorphic-git call on a remote shares: its options (the guarded HTTP client, a file
// system that leaves refs to scion), and its failures turned into values a caller can word for the user.
//
// isomorphic-git writes refs with a plain writeFile and deletes them by rewriting packed-refs, taking
// no lock: beside a native git a reader could see a ref half written, and a concurrent update would
// be lost. So the file system it gets drops its writes and deletions of refs, packed-refs, HEAD and
// reflogs; the caller moves the refs it means to (a remote-tracking ref after a fetch or a push)
// through updateRef and deleteRef, under git's lock protocol. Objects, packs and `shallow` are
// written as isomorphic-git writes them.
import fs from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { isScionError, ScionError, type Result } from '../errors.js';
import { guardedHttp, type RemoteAccess } from './transport.js';

/**
 * Why a call to the remote failed. `auth`: 401/403; `unreachable`: no HTTP answer at all (`code`:
 * the network's error code); `too-large`: past RemoteAccess.maxBytes (`limit`).
 */
export interface TransportFailure {
  readonly reason: 'auth' | 'unreachable' | 'rejected' | 'moved' | 'protocol' | 'too-large';
  /** HTTP status when there was one. */
  readonly status: number | null;
  /** What the server or the network said, for the user's message (never holds the token). */
  readonly detail: string;
  /** For `unreachable`: Node's error code (ECONNREFUSED, ENOTFOUND, …). */
  readonly code?: string;
  /** For `too-large`: the bytes a call could receive. */
  readonly limit?: number;
}

export type TransportResult<T> = Result<T, TransportFailure>;

/** A commit the remote holds, shown to isomorphic-git as refs/remotes/<remote>/HEAD (see pushOnce). */
export interface RemoteHead {
  readonly remote: string;
  readonly oid: string;
}

/**
 * What an isomorphic-git call on repository `gitdir` and its remote `remote` is given: the file system
 * that leaves refs alone, the guarded client, the access's cache, and a fresh header object.
 */
export function callOptions(gitdir: string, access: RemoteAccess, remote: string, remoteHead?: RemoteHead) {
  return {
    fs: refsLeftAlone(gitdir, remoteHead),
    http: guardedHttp(access),
    ...(access.cache ? { cache: access.cache } : {}),
    gitdir,
    url: access.url,
    remote,
    // A fresh object per call: isomorphic-git adds its own headers to the one it is given. No
    // credential is given to isomorphic-git at all (its onAuth would answer any host): guardedHttp
    // adds it where the credential rule allows.
    headers: {},
  };
}

/**
 * node:fs for isomorphic-git with its ref writes dropped (see the header). `remoteHead` makes it read
 * refs/remotes/<remote>/HEAD as that commit, without anything written.
 */
function refsLeftAlone(gitdir: string, remoteHead?: RemoteHead) {
  const root = resolve(gitdir);
  const isRef = (file: unknown): boolean => {
    if (typeof file !== 'string') return false;
    const p = resolve(file);
    return p === join(root, 'HEAD') || p === join(root, 'packed-refs') || p.startsWith(join(root, 'refs') + sep) || p.startsWith(join(root, 'logs') + sep);
  };
  const headFile = remoteHead ? join(root, 'refs', 'remotes', remoteHead.remote, 'HEAD') : null;
  const readFile = (file: unknown, options?: unknown): Promise<string | Buffer> => {
    if (headFile !== null && typeof file === 'string' && resolve(file) === headFile) {
      const text = `${remoteHead!.oid}\n`;
      const encoded = typeof options === 'string' || (typeof options === 'object' && options !== null && 'encoding' in options && options.encoding);
      return Promise.resolve(encoded ? text : Buffer.from(text));
    }
    return (fs.promises.readFile as (f: unknown, o?: unknown) => Promise<string | Buffer>)(file, options);
  };
  const writeFile = (file: unknown, data: unknown, options?: unknown): Promise<void> =>
    isRef(file) ? Promise.resolve() : (fs.promises.writeFile as (f: unknown, d: unknown, o?: unknown) => Promise<void>)(file, data, options);
  const unlink = (file: unknown): Promise<void> => (isRef(file) ? Promise.resolve() : (fs.promises.unlink as (f: unknown) => Promise<void>)(file));
  return { promises: { ...fs.promises, readFile, writeFile, unlink } };
}

/**
 * A failure of the remote as the one thrown error, kind `remote` (exit 1, never a bug), for a caller
 * that cannot go on without the remote; `message` says what scion was doing and what to check.
 */
export function transportError(f: TransportFailure, message: string): ScionError {
  return new ScionError('remote', message, { data: { reason: f.reason, status: f.status, ...(f.code === undefined ? {} : { code: f.code }) } });
}

/** isomorphic-git's and Node's errors → what happened, in words a user can act on. */
export function transportFailure(e: unknown): TransportFailure {
  if (isScionError(e, 'too-large')) return { reason: 'too-large', status: null, detail: e.message, limit: Number(e.data['limit']) };
  const err = e as { code?: unknown; message?: unknown; data?: Record<string, unknown> };
  const code = typeof err.code === 'string' ? err.code : '';
  const message = typeof err.message === 'string' ? err.message : String(e);
  if (code === 'HttpError') {
    const status = Number(err.data?.['statusCode']);
    const reason = status === 401 || status === 403 ? 'auth' : 'protocol';
    return { reason, status: Number.isFinite(status) ? status : null, detail: `HTTP ${status} ${String(err.data?.['statusMessage'] ?? '')}`.trim() };
  }
  if (code === 'GitPushError') {
    const detail = String(err.data?.['prettyDetails'] ?? message)
      .replace(/\s*\n\s*-?\s*/g, ' ')
      .trim();
    return { reason: 'rejected', status: null, detail };
  }
  if (code === 'SmartHttpError') return { reason: 'protocol', status: null, detail: 'the server did not answer as a git smart-HTTP server' };
  // Node's network errors (ECONNREFUSED, ENOTFOUND, ECONNRESET, …) carry a string errno code.
  if (/^E[A-Z]+$/.test(code)) return { reason: 'unreachable', status: null, detail: message, code };
  return { reason: 'protocol', status: null, detail: message };
}
