// The one GitHub client construction (GitHubHost and repository discovery share it): @octokit/core
// with @octokit/plugin-throttling for secondary rate limits and exhausted quotas (Retry-After,
// x-ratelimit-reset), @octokit/plugin-retry for 5xx and network failures, and a small plugin for a
// plain 429 with Retry-After. Every wait the host asks for holds the token's write budget (budget.ts);
// the throttling plugin's own one-request-per-second write queue is replaced by one that does not wait,
// since the budget paces the writes. octokit is loaded with the first client (~60 ms of start-up a
// run without --push or --pr, and `plan`, would otherwise pay for nothing); a load that fails is a
// `host` error, and the next client tries to load it again.
import type { Octokit } from '@octokit/core';
import { processWriteBudgets, type WriteBudget } from './budget.js';
import { explainGitHub } from './github-explain.js';
import { apiFetch } from './http.js';
import { HostError, ScionError } from '../errors.js';
import { loadOnce } from '../util/load-once.js';
import type { RequestLimits } from './types.js';

/** How many times the current call was retried (set by the client's retry hooks). */
export interface RetryTracker {
  retries: number;
}

interface ScionPluginOptions {
  readonly scion?: {
    readonly maxRetries: number;
    readonly maxWaitMs: number;
    readonly tracker: RetryTracker;
    readonly sleep: (ms: number) => Promise<void>;
    readonly budget: WriteBudget;
  };
}

/**
 * How many times a request the host asked scion to slow down for (a secondary limit, a spent quota, a
 * 429 with Retry-After) is waited out and sent again: such an answer is the host pacing scion, not a
 * failure, so it gets more attempts than a server error does; each wait is still bounded by maxRetryWaitMs.
 */
export function slowDownRetries(maxRetries: number): number {
  return Math.max(maxRetries, 20);
}

/** Waits on a 429 the throttling plugin leaves alone (not a secondary limit, quota not at 0). */
function honourRetryAfter(octokit: Octokit, options: ScionPluginOptions): void {
  const o = options.scion;
  if (!o) return;
  octokit.hook.wrap('request', async (request, opts) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await request(opts);
      } catch (e) {
        const wait = plain429Wait(e);
        if (wait === null || attempt >= slowDownRetries(o.maxRetries) || wait > o.maxWaitMs) throw e;
        o.tracker.retries = attempt + 1;
        o.budget.hostAsked(wait);
        await o.sleep(wait);
      }
    }
  });
}

function plain429Wait(e: unknown): number | null {
  const err = e as { status?: unknown; message?: unknown; response?: { headers?: Record<string, string | undefined> } };
  if (err.status !== 429 || !err.response) return null;
  const h = err.response.headers ?? {};
  if (/\bsecondary rate\b/i.test(String(err.message)) || h['x-ratelimit-remaining'] === '0') return null;
  const after = h['retry-after'];
  if (after !== undefined) {
    const seconds = Number(after);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  const reset = Number(h['x-ratelimit-reset']);
  return reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : 60_000;
}

/** octokit with the plugins. */
async function loadClient() {
  const [{ Octokit }, { retry }, { throttling }] = await Promise.all([
    import('@octokit/core'),
    import('@octokit/plugin-retry'),
    import('@octokit/plugin-throttling'),
  ]);
  return Octokit.plugin(throttling, retry, honourRetryAfter as never);
}

export type OctokitClass = Awaited<ReturnType<typeof loadClient>>;

/** octokit with the plugins, loaded at the first client and shared by the next ones; loaded again after a failure. */
export const loadOctokit: () => Promise<OctokitClass> = loadOnce(loadClient);

/** A Bottleneck group that never waits: pacing is scion's own (--pr-interval). */
const unpaced = {
  key: () => ({
    schedule: (...args: unknown[]) =>
      (args.find((a) => typeof a === 'function') as (...a: unknown[]) => unknown)(...args.slice(args.findIndex((a) => typeof a === 'function') + 1)),
  }),
};

export type GitHubClient = InstanceType<OctokitClass>;

export interface GitHubClientOptions extends RequestLimits {
  readonly apiUrl: string;
  readonly token: string;
  readonly fetch?: typeof fetch;
  /** Loads octokit (default loadOctokit; a test passes one that fails). */
  readonly loadOctokit?: () => Promise<OctokitClass>;
}

/**
 * An octokit with scion's rate-limit and retry rules and the token on every request: the one client
 * construction that GitHubHost and repository discovery (campaign/discover.ts) share.
 */
export async function githubClient(o: GitHubClientOptions, tracker: RetryTracker): Promise<GitHubClient> {
  let Client: OctokitClass;
  try {
    Client = await (o.loadOctokit ?? loadOctokit)();
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).split('\n')[0];
    const message = `Could not load scion's GitHub client (octokit: ${why}); reinstall scion (npm install), then run again.`;
    throw new ScionError('host', message, { data: { status: null }, cause: e });
  }
  const apiUrl = o.apiUrl.replace(/\/+$/, '');
  const maxRetries = o.maxRetries ?? 3;
  const maxWaitMs = o.maxRetryWaitMs ?? 120_000;
  const writes = o.writes ?? processWriteBudgets();
  const budget = writes.of(apiUrl, o.token);
  // A retry's wait: the host's time, held on the token's budget so no other write goes out meanwhile.
  const wait = o.sleep ?? ((ms: number) => writes.clock.sleep(ms));
  // The throttling plugin awaits this answer; the wait is made here, so the plugin retries at once
  // (retryAfterBaseValue 0) and every wait scion makes goes through `wait`.
  const wantRetry = async (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number): Promise<boolean> => {
    if (retryCount >= slowDownRetries(maxRetries) || retryAfter * 1000 > maxWaitMs) return false;
    tracker.retries = retryCount + 1;
    budget.hostAsked(retryAfter * 1000);
    await wait(retryAfter * 1000);
    return true;
  };
  const octokit = new Client({
    baseUrl: apiUrl,
    userAgent: 'scion',
    request: { fetch: apiFetch(apiUrl, o.timeoutMs ?? 60_000, o.fetch, { budget, token: o.token, ...(o.reads ? { reads: o.reads } : {}) }) },
    throttle: {
      onRateLimit: wantRetry as never,
      onSecondaryRateLimit: wantRetry as never,
      retryAfterBaseValue: 0,
      write: unpaced as never,
      notifications: unpaced as never,
    },
    retry: { retries: maxRetries, retryAfterBaseValue: o.backoffMs ?? 1000, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
    scion: { maxRetries, maxWaitMs, tracker, sleep: wait, budget },
  } as ConstructorParameters<typeof Client>[0]);
  // @octokit/core takes no default headers; every request (REST and GraphQL) gets them here.
  octokit.hook.before('request', (opts) => {
    Object.assign(opts.headers, { authorization: `Bearer ${o.token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' });
  });
  return octokit;
}

/** Turns `explainGitHub`'s arguments into a sentence; discovery words 401/403/404 its own way. */
export type ExplainGitHub = (status: number, what: string, body: unknown, retries: number | null) => string;

/** An octokit failure as one HostError sentence: unreachable, rate-limited after retries, or what GitHub said. */
export function githubFailure(e: unknown, what: string, apiUrl: string, tracker: RetryTracker, explain: ExplainGitHub = explainGitHub): HostError {
  // Already said in scion's words (the client could not be loaded).
  if (e instanceof HostError) return e;
  const err = e as { status?: unknown; message?: unknown; response?: { data?: unknown; headers?: Record<string, string | undefined> } };
  if (typeof err.status !== 'number' || err.response === undefined) {
    const why = e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);
    return new HostError(`Could not reach GitHub at ${apiUrl} while ${what} (${why}); check the network and GITHUB_API_URL.`, null);
  }
  const h = err.response.headers ?? {};
  const limited =
    err.status === 429 ||
    (err.status === 403 && (h['retry-after'] !== undefined || h['x-ratelimit-remaining'] === '0' || /\bsecondary rate\b/i.test(String(err.message))));
  const retried = limited || (err.status >= 500 && tracker.retries > 0) ? tracker.retries : null;
  return new HostError(explain(err.status, what, err.response.data ?? err.message, retried), err.status);
}
