// The HTTP side of talking to a remote: isomorphic-git loaded on first use, what a remote is reached
// with (RemoteAccess), and the client every call goes through (guardedHttp), which carries a
// credential only where the credential rule (host/credentials.ts) bound it, only after a 401,
// follows redirects itself, gives up on a silent server and caps how much one call may receive.
import type { HttpClient } from 'isomorphic-git';
import { ScionError } from '../errors.js';
import { loadOnce } from '../util/load-once.js';

type IsoGit = (typeof import('isomorphic-git'))['default'];

/** isomorphic-git is loaded on the first network call (again after a failed load): a run that never talks to a remote skips ~0.2 s of start-up. */
export const iso: () => Promise<{ git: IsoGit; http: HttpClient }> = loadOnce(() =>
  Promise.all([import('isomorphic-git'), import('isomorphic-git/http/node')]).then(([g, h]) => ({ git: g.default, http: h.default })),
);

/**
 * Headers that authenticate to one origin (scheme, host and port), as the credential rule
 * (host/credentials.ts) chose them. The transport only carries them: to that origin, and only
 * after it answered 401.
 */
export interface OriginCredential {
  readonly origin: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** How to reach a remote: its URL and the credential to offer when it asks. */
export interface RemoteAccess {
  /** The http(s) URL, without any `user:password@` (the credential rule moved those into `credential`). */
  readonly url: string;
  /** Offered to `credential.origin` once that origin answers 401, and nowhere else; null: nothing. */
  readonly credential?: OriginCredential | null;
  /** isomorphic-git's cache: one object shared by every call on one repository keeps its packs loaded. */
  readonly cache?: object;
  /**
   * How long the connection may stay silent (no answer, no byte of the body) before the request is
   * given up as unreachable (a server that stops answering never hangs a run). Default 60 s.
   */
  readonly idleTimeoutMs?: number;
  /**
   * How many bytes of answers one call may receive (a clone's pack is held in memory whole): past it
   * the call fails with a `too-large` ScionError instead of filling the machine's memory. Default none.
   */
  readonly maxBytes?: number;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** A call's answers went past RemoteAccess.maxBytes: kind `too-large`, `data.limit` that number. */
export function transferLimitError(limit: number): ScionError {
  return new ScionError('too-large', `the server sent more than ${limit} bytes`, { data: { limit } });
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

type HttpRequest = Parameters<HttpClient['request']>[0];
type HttpResponse = Awaited<ReturnType<HttpClient['request']>>;

const MAX_REDIRECTS = 10;

/**
 * isomorphic-git's HTTP client with the transport half of the credential rule applied to every
 * request: whatever reaches it as an Authorization header is dropped, and the access's credential is
 * added only on requests to its own origin, and only after that origin answered 401 (the request is
 * then sent again with it, as git does). Redirects are followed here, one hop at a time, so a hop to
 * another origin (another host, port or scheme) never carries the credential.
 */
export function guardedHttp(access: RemoteAccess, inner?: HttpClient): HttpClient {
  const cred = access.credential ?? null;
  // One client serves one isomorphic-git call: once the origin asked, its later requests carry it.
  let challenged = false;
  const received = { bytes: 0 };
  const idle = access.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const client = () => (inner ? Promise.resolve(inner) : iso().then((i) => i.http));
  const send = async (req: HttpRequest): Promise<HttpResponse> => {
    try {
      // simple-get's `timeout` is the socket's idle limit: it aborts a request whose server went
      // silent, before its answer or in the middle of its body.
      return await (await client()).request({ ...req, fetchOptions: { ...req.fetchOptions, timeout: idle, followRedirects: false } });
    } catch (e) {
      if (e instanceof Error && e.message === 'Request timed out') {
        throw Object.assign(new Error(`the server sent nothing for ${idle / 1000} s`), { code: 'ETIMEDOUT' });
      }
      throw e;
    }
  };
  return {
    request: async (req) => {
      const base: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers ?? {})) if (k.toLowerCase() !== 'authorization') base[k.toLowerCase()] = v;
      // isomorphic-git's bodies are arrays of chunks: gathered once, they can be sent again after a 401.
      const { body: given, ...rest } = req;
      const body = given === undefined || given === null ? undefined : [await gather(given)];
      let url = req.url;
      let method = req.method ?? 'GET';
      let payload = body;
      for (let hops = 0; ;) {
        const mine = cred !== null && originOf(url) === cred.origin;
        const headers = mine && challenged ? { ...base, ...cred.headers } : base;
        const res = await send({
          ...rest,
          url,
          method,
          headers,
          ...(payload === undefined ? {} : { body: payload as unknown as NonNullable<HttpRequest['body']> }),
        });
        if (res.statusCode === 401 && mine && !challenged) {
          await drain(res);
          challenged = true;
          continue;
        }
        const location = res.headers?.['location'];
        if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string' && location !== '') {
          if (++hops > MAX_REDIRECTS) {
            // A remote's doing: said as a protocol failure of the call (remote-call.ts transportFailure).
            throw new ScionError('remote', `the server redirected more than ${MAX_REDIRECTS} times`, { data: { reason: 'protocol' } });
          }
          await drain(res);
          url = new URL(location, url).href;
          // As curl does: a 303 turns into a GET, and so does a POST answered 301 or 302.
          if (res.statusCode === 303 || (method === 'POST' && (res.statusCode === 301 || res.statusCode === 302))) {
            method = 'GET';
            payload = undefined;
            delete base['content-type'];
            delete base['content-length'];
          }
          continue;
        }
        return access.maxBytes === undefined || !res.body ? res : { ...res, body: capped(res.body, received, access.maxBytes) };
      }
    },
  };
}

/**
 * `body`, counted into `received`: past `limit` bytes it throws a `too-large` ScionError and closes the
 * connection. (isomorphic-git's pkt-line reader turns the throw into the call's failure.)
 */
function capped(body: AsyncIterableIterator<Uint8Array>, received: { bytes: number }, limit: number): AsyncIterableIterator<Uint8Array> {
  const inner = (Symbol.asyncIterator in body ? body[Symbol.asyncIterator]() : body) as AsyncIterator<Uint8Array>;
  const it: AsyncIterableIterator<Uint8Array> = {
    next: async () => {
      const r = await inner.next();
      if (!r.done && r.value) {
        received.bytes += r.value.byteLength;
        if (received.bytes > limit) {
          await inner.return?.();
          throw transferLimitError(limit);
        }
      }
      return r;
    },
    return: async () => (await inner.return?.()) ?? { done: true, value: undefined },
    [Symbol.asyncIterator]: () => it,
  };
  return it;
}

async function gather(body: AsyncIterableIterator<Uint8Array> | Iterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const c of body as AsyncIterable<Uint8Array>) chunks.push(c);
  return Buffer.concat(chunks);
}

/** Reads and drops a response's body, so its connection is freed. */
async function drain(res: HttpResponse): Promise<void> {
  if (!res.body) return;
  try {
    for await (const _ of res.body as AsyncIterable<Uint8Array>) {
      // discarded
    }
  } catch {
    // a body cut short changes nothing: the request is sent again or given up
  }
}
