// fetch for host APIs: a deadline on every request (a server that stops answering cannot hang a
// nightly run), the credential rule checked on the URL actually requested, every write spent from
// the write budget of the host and token (budget.ts), and reads made conditional where the host tags
// its answers (etags.ts). Both hosts' clients send through this, so the budget and the cache hold
// for every request, retries included.
import type { WriteBudget } from './budget.js';
import { isWrite } from './budget.js';
import { mayCarryCredentials, originOf } from './credentials.js';
import type { ReadCache } from './etags.js';

export interface ApiFetchExtras {
  /** The budget writes are spent from; none: writes go out unmetered. */
  readonly budget?: WriteBudget;
  /** Conditional reads; none: every read in full. */
  readonly reads?: ReadCache;
  /** The token the cache keys its answers by (two tokens may see two answers). */
  readonly token?: string;
  readonly signal?: AbortSignal;
}

export function apiFetch(apiUrl: string, timeoutMs: number, fetchImpl: typeof fetch = globalThis.fetch, x: ApiFetchExtras = {}): typeof fetch {
  const home = originOf(apiUrl);
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init?.headers);
    // Only the API's own origin gets the token, and only where it may travel (HTTPS or loopback).
    const ours = originOf(url) === home && mayCarryCredentials(url);
    if (!ours) {
      headers.delete('authorization');
      headers.delete('private-token');
    }
    const write = isWrite(init?.method);
    const answered = ours && write && x.budget ? await x.budget.take(x.signal) : null;
    const cached = ours && !write && x.reads ? x.reads.tagOf(url, x.token ?? '') : null;
    if (cached !== null) headers.set('if-none-match', cached);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    // Redirects are not followed: a 3xx to another host would carry the token there.
    let res: Response;
    try {
      res = await fetchImpl(url, { ...init, headers, signal, redirect: 'manual' });
    } finally {
      answered?.();
    }
    if (!ours || write || !x.reads) return res;
    if (res.status === 304 && cached !== null) return x.reads.answer(url, x.token ?? '') ?? res;
    return x.reads.keep(url, x.token ?? '', res);
  };
}
