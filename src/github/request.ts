// One GitHub REST call with plain fetch: auth, JSON, bounded retries on rate limits (honouring
// Retry-After / X-RateLimit-Reset) and on 5xx, and errors that say what to do.
import { GitHubApiError } from './errors.js';

export interface ApiContext {
  readonly apiUrl: string;
  readonly token: string;
  readonly fetch: typeof fetch;
  /** Retries after a rate limit or a 5xx before giving up. */
  readonly maxRetries: number;
  /** Upper bound on one wait between retries, whatever GitHub asks for. */
  readonly maxRetryWaitMs: number;
}

/** `what` completes "while …": e.g. "creating the pull request for scion/x". */
export async function githubRequest<T>(ctx: ApiContext, method: string, path: string, what: string, body?: unknown): Promise<T> {
  const url = `${ctx.apiUrl.replace(/\/+$/, '')}${path}`;
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await ctx.fetch(url, {
        method,
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${ctx.token}`,
          'x-github-api-version': '2022-11-28',
          'user-agent': 'scion',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (e) {
      throw new GitHubApiError(
        `Could not reach GitHub at ${ctx.apiUrl} while ${what} (${(e as Error).message}); check the network and GITHUB_API_URL.`,
        null,
      );
    }
    if (res.ok) return (res.status === 204 ? undefined : await res.json()) as T;

    const text = await res.text();
    const wait = retryWait(res, attempt);
    if (wait !== null && attempt < ctx.maxRetries) {
      await sleep(Math.min(wait, ctx.maxRetryWaitMs));
      continue;
    }
    throw new GitHubApiError(explain(res.status, what, text, wait !== null ? attempt : null), res.status);
  }
}

/** Milliseconds to wait before retrying, or null when retrying cannot help. */
function retryWait(res: Response, attempt: number): number | null {
  const retryAfter = res.headers.get('retry-after');
  const rateLimited =
    res.status === 429 || (res.status === 403 && (retryAfter !== null || res.headers.get('x-ratelimit-remaining') === '0'));
  if (rateLimited) {
    if (retryAfter !== null) {
      const seconds = Number(retryAfter);
      if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
      const date = Date.parse(retryAfter);
      if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
    }
    const reset = Number(res.headers.get('x-ratelimit-reset'));
    if (reset > 0) return Math.max(0, reset * 1000 - Date.now());
    // GitHub's advice for a secondary rate limit without headers: wait at least a minute.
    return 60_000;
  }
  if (res.status >= 500) return 1000 * 2 ** attempt;
  return null;
}

function explain(status: number, what: string, body: string, retriedAfter: number | null): string {
  const detail = githubMessage(body);
  const said = detail === '' ? `${status}` : `${status} ${detail}`;
  if (retriedAfter !== null && (status === 429 || status === 403)) {
    return `GitHub kept rate-limiting the requests while ${what} (${said}) after ${retriedAfter} retries; run \`scion pr\` again later, or open fewer pull requests per run.`;
  }
  if (retriedAfter !== null) return `GitHub failed while ${what} (${said}) after ${retriedAfter} retries; try again later.`;
  switch (status) {
    case 401:
      return `GitHub rejected the token while ${what} (${said}); set GITHUB_TOKEN to a token with pull-request write permission.`;
    case 403:
      return (
        `GitHub refused the request while ${what} (${said}); give the token pull-request write permission ` +
        '(in Actions: `permissions: pull-requests: write`, and allow GitHub Actions to create pull requests in the repository settings).'
      );
    case 404:
      return `GitHub answered 404 while ${what}: the repository does not exist or the token cannot see it; check the owner/repo and GITHUB_TOKEN's access.`;
    case 422:
      return what.startsWith('creating')
        ? `GitHub rejected the request while ${what} (${said}); check that the branch was pushed and has commits the base branch lacks.`
        : `GitHub rejected the request while ${what} (${said}).`;
    default:
      return `GitHub answered ${said} while ${what}.`;
  }
}

/** GitHub's error JSON: {message, errors: [{message} | {resource, field, code}]}. */
function githubMessage(body: string): string {
  try {
    const data = JSON.parse(body) as { message?: unknown; errors?: unknown };
    const parts = typeof data.message === 'string' ? [data.message] : [];
    if (Array.isArray(data.errors)) {
      for (const e of data.errors as Record<string, unknown>[]) {
        if (typeof e?.message === 'string') parts.push(e.message);
        else if (e && typeof e === 'object') parts.push([e.resource, e.field, e.code].filter((x) => typeof x === 'string').join(' '));
      }
    }
    return parts.filter((p) => p !== '').join(': ');
  } catch {
    return body.trim().slice(0, 200);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
