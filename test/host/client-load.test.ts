// Loading octokit, which GitHubHost does at its first request: a load that fails is a `host` error
// for that request (one sentence, not a stray exception), and the next request loads it again. The
// loader is the one thing injected (a failing import cannot be made otherwise); every request goes to
// a fake GitHub on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { isScionError } from '../../src/errors.js';
import { loadOctokit, type OctokitClass } from '../../src/host/github-client.js';
import { GitHubHost } from '../../src/host/github.js';
import { useFakeGitHub } from '../support/servers.js';

const gh = useFakeGitHub('acme', 'app');

/** A loader that fails its first `failures` calls (as an import of a missing package does), then loads octokit. */
function flaky(failures: number): { load: () => Promise<OctokitClass>; calls: () => number } {
  let calls = 0;
  const load = async () => {
    if (++calls <= failures) throw Object.assign(new Error("Cannot find package '@octokit/core'"), { code: 'ERR_MODULE_NOT_FOUND' });
    return loadOctokit();
  };
  return { load, calls: () => calls };
}

const host = (loadOctokit: () => Promise<OctokitClass>) =>
  new GitHubHost({ apiUrl: gh.url, token: 'ghs_test123', owner: 'acme', repo: 'app', backoffMs: 1, loadOctokit });
const pull = { number: 7, url: '', state: 'open', draft: true, headSha: null, base: 'main', body: '', nodeId: 'PR_7', updatedAt: null, reviewers: [] } as const;

async function thrown(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => null,
    (e: unknown) => e,
  );
}

describe('loading octokit', () => {
  it('a failed load is a host error for the request, and the next request loads it again', async () => {
    const loader = flaky(1);
    const h = host(loader.load);
    const e = await thrown(h.findPull('scion/x'));
    expect(isScionError(e, 'host')).toBe(true);
    expect(e).toMatchObject({ data: { status: null }, message: expect.stringMatching(/^Could not load scion's GitHub client \(octokit: Cannot find package/) });
    expect(gh.requests).toEqual([]);
    expect(await h.findPull('scion/x')).toBeNull();
    expect(loader.calls()).toBe(2);
    expect(gh.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /repos/acme/app/pulls']);
  });

  it('auto-merge and marking ready (GraphQL) fail the same way, not with a stray exception', async () => {
    const h = host(flaky(Infinity).load);
    for (const call of [() => h.enableAutoMerge(pull, 'squash'), () => h.markReady(pull)]) {
      const e = await thrown(call());
      expect(isScionError(e, 'host')).toBe(true);
      expect((e as Error).message).toMatch(/^Could not load scion's GitHub client/);
    }
  });
});
