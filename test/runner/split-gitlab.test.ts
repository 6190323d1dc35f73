// A job split by owner published on GitLab (the git server named GitLab's by CI_SERVER_URL, a fake GitLab
// API on loopback): CODEOWNERS read as GitLab reads it by default, one merge request per piece with its
// owners as reviewers; a group owner (no user) is left to the body, not a failure.
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { makeRemote, remotePath } from '../support/git-remote.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import { fakeGitLabsAfterEach, useGitServer } from '../support/servers.js';

const CODEOWNERS = ['* @octocat', '', '[Web]', '/web/ @hubot @acme/web-group', '', '[Api]', '/api/ @api-group', ''].join('\n');
const RECIPE = recipeFile('name: bump\nsplit: { by: owners }\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n');

const server = useGitServer('glpat-test-token');
const cleanups = cleanupAfterEach();
const startFakeGitLab = fakeGitLabsAfterEach();

describe('split by owner, published on GitLab', () => {
  it("reads CODEOWNERS as GitLab does and asks each piece's users for review", async () => {
    const remote = await makeRemote(server, { '.gitlab/CODEOWNERS': CODEOWNERS, 'web/a.ts': 'v1\n', 'api/b.ts': 'v1\n', 'c.ts': 'v1\n' }, cleanups);
    const work = await remote.clone();
    const gitlab = await startFakeGitLab(remotePath(remote));
    const env = { GITLAB_TOKEN: server.token, GITLAB_API_URL: gitlab.apiUrl, CI_SERVER_URL: server.url };
    const runIt = async () => {
      const res = await scion(['run', RECIPE, '--repo', work.dir, '--push', '--pr', '--pr-interval', '0', '--json'], { cwd: work.dir, env });
      expect(res.code, res.stderr).toBe(0);
      return JSON.parse(res.stdout) as RunReport;
    };
    const first = await runIt();
    // Every section applies: web/a.ts is owned by the default section's @octocat and Web's owners.
    expect(first.jobs.map((j) => [j.name, j.owners, j.files.map((f) => f.path), j.split!.codeowners, j.split!.file])).toEqual([
      ['bump/api-group+octocat', ['@api-group', '@octocat'], ['api/b.ts'], 'gitlab', '.gitlab/CODEOWNERS'],
      ['bump/hubot+octocat+web-group', ['@acme/web-group', '@hubot', '@octocat'], ['web/a.ts'], 'gitlab', '.gitlab/CODEOWNERS'],
      ['bump/octocat', ['@octocat'], ['c.ts'], 'gitlab', '.gitlab/CODEOWNERS'],
    ]);
    for (const j of first.jobs) expect(remote.git('rev-parse', j.branch)).toBe(j.head);
    // octocat is user 7, hubot 8; @api-group is no user and @acme/web-group a group: neither can review.
    expect(gitlab.mrs.map((m) => [m.source, [...m.reviewerIds].sort()])).toEqual([
      ['scion/bump/api-group+octocat', [7]],
      ['scion/bump/hubot+octocat+web-group', [7, 8]],
      ['scion/bump/octocat', [7]],
    ]);
    expect(gitlab.mrs[1]!.description).toContain('`.gitlab/CODEOWNERS:4` `/web/` in section `[Web]`');
    expect(gitlab.mrs[1]!.description).toContain('as GitLab reads it');

    const second = await runIt();
    expect(second.jobs.map((j) => [j.status, j.pullRequest?.action])).toEqual(first.jobs.map(() => ['unchanged', 'updated']));
    expect(gitlab.mrs).toHaveLength(3);
  });
});
