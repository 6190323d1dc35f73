// fetch for host APIs: a deadline on every request (a server that stops answering cannot hang a
// nightly run), and the credential rule checked on the URL actually requested.
import { mayCarryCredentials, originOf } from './credentials.js';

export function apiFetch(apiUrl: string, timeoutMs: number, fetchImpl: typeof fetch = globalThis.fetch): typeof fetch {
  const home = originOf(apiUrl);
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init?.headers);
    // Only the API's own origin gets the token, and only where it may travel (HTTPS or loopback).
    if (originOf(url) !== home || !mayCarryCredentials(url)) {
      headers.delete('authorization');
      headers.delete('private-token');
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    // Redirects are not followed: a 3xx to another host would carry the token there.
    return fetchImpl(url, { ...init, headers, signal, redirect: 'manual' });
  };
}
