// GitHub's failures in one sentence each: what scion was doing, what GitHub said, what to do.
import { htmlTitle } from './answer.js';

/** `what` completes "while …": e.g. "creating the pull request for scion/x into main". */
export function explainGitHub(status: number, what: string, body: unknown, retries: number | null): string {
  const sentence = explainStatus(status, what, body, retries);
  // An HTML page is a proxy's or another server's, not the API's: say where to look too.
  return typeof body === 'string' && htmlTitle(body) !== null ? sentence.replace(/\.$/, '; check that GITHUB_API_URL is the GitHub API.') : sentence;
}

function explainStatus(status: number, what: string, body: unknown, retries: number | null): string {
  const detail = githubMessage(body);
  const said = detail === '' ? `${status}` : `${status} ${detail}`;
  if (retries !== null && (status === 429 || status === 403)) {
    const tried = retries > 0 ? `after ${retries} retries` : 'asking for a longer wait than scion allows';
    return `GitHub kept rate-limiting the requests while ${what} (${said}) ${tried}; run \`scion pr\` again later, or pace the pull requests (--pr-interval).`;
  }
  if (retries !== null && status >= 500) return `GitHub failed while ${what} (${said}) after ${retries} retries; try again later.`;
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

/** GitHub's error JSON: {message, errors: [{message} | {resource, field, code}]}; text as it came otherwise. */
export function githubMessage(body: unknown): string {
  let data = body;
  if (typeof body === 'string') {
    try {
      data = JSON.parse(body);
    } catch {
      return htmlTitle(body) ?? body.trim().slice(0, 200);
    }
  }
  if (data === null || typeof data !== 'object') return '';
  const { message, errors } = data as { message?: unknown; errors?: unknown };
  const parts = typeof message === 'string' ? [message] : [];
  if (Array.isArray(errors)) {
    for (const e of errors as Record<string, unknown>[]) {
      if (typeof e === 'string') parts.push(e);
      else if (typeof e?.message === 'string') parts.push(e.message);
      else if (e && typeof e === 'object') parts.push([e.resource, e.field, e.code].filter((x) => typeof x === 'string').join(' '));
    }
  }
  return parts.filter((p) => p !== '').join(': ');
}
