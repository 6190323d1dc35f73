// A job split by owner through the CLI: a git server and a fake GitHub on loopback, CODEOWNERS of four
// owner sets; each piece pushed to its own branch and given its own pull request, which asks the piece's
// owners for review (users and teams) and says which CODEOWNERS lines made them the owners. Native git
// judges the branches.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobReport, RunReport } from '../../src/model/types.js';
import { githubRemote, type GitHubRemote } from '../support/git-remote.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import { useGitServer } from '../support/servers.js';

const CODEOWNERS = ['* @acme/core', '/web/ @acme/team-web', '/api/ @alice @acme/team-api', '/docs/ docs@example.com', ''].join('\n');
const FILES = {
  '.github/CODEOWNERS': CODEOWNERS,
  'README.md': 'uses v1\n',
  'web/a.ts': 'v1\n',
  'web/b.ts': 'v1 v1\n',
  'api/c.ts': 'v1\n',
  'docs/d.md': 'v1\n',
  'untouched.txt': 'nothing here\n',
};
const RECIPE = recipeFile(
  'name: bump\ndescription: Move to v2\nsplit: { by: owners }\nsteps:\n  - replace: { old_string: "v1", new_string: "v2", replace_all: true }\n' +
    'pr:\n  reviewers: [octocat]\n',
);

const server = useGitServer();
const cleanups = cleanupAfterEach();

async function runPr(s: GitHubRemote): Promise<RunReport> {
  const res = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--pr', '--pr-interval', '0', '--json'], { cwd: s.work.dir, env: s.env });
  expect(res.stderr).not.toContain('internal error');
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as RunReport;
}

const pieces = (r: RunReport) => r.jobs.map((j) => [j.name, j.branch, j.status, j.owners, j.files.map((f) => f.path)]);
const pullOf = (s: GitHubRemote, j: JobReport) => s.github.pulls.find((p) => p.head === j.branch)!;

describe('split by owner, published on GitHub', () => {
  it('four owner sets: four branches, four pull requests asking their owners; a rerun changes nothing and duplicates nothing', async () => {
    const s = await githubRemote(server, FILES, cleanups);
    const first = await runPr(s);
    expect(pieces(first)).toEqual([
      ['bump/alice+team-api', 'scion/bump/alice+team-api', 'changed', ['@acme/team-api', '@alice'], ['api/c.ts']],
      ['bump/core', 'scion/bump/core', 'changed', ['@acme/core'], ['README.md']],
      ['bump/docs', 'scion/bump/docs', 'changed', ['docs@example.com'], ['docs/d.md']],
      ['bump/team-web', 'scion/bump/team-web', 'changed', ['@acme/team-web'], ['web/a.ts', 'web/b.ts']],
    ]);
    // Each piece's branch holds its files' change and nothing else; the job's own branch is not written.
    for (const j of first.jobs) {
      expect(s.remote.git('rev-parse', j.branch)).toBe(j.head);
      expect(s.remote.git('diff', '--name-only', `main..${j.branch}`).split('\n')).toEqual(j.files.map((f) => f.path));
      expect(j.pushed).toMatchObject({ ref: `refs/heads/${j.branch}`, sha: j.head, sent: true });
      expect(j.split).toMatchObject({ job: 'bump', piece: j.name.slice('bump/'.length), codeowners: 'github', file: '.github/CODEOWNERS' });
    }
    expect(s.remote.git('for-each-ref', '--format=%(refname)', 'refs/heads/scion/').split('\n')).toEqual(first.jobs.map((j) => `refs/heads/${j.branch}`));
    expect(s.work.git('show', 'scion/bump/team-web:web/b.ts')).toBe('v2 v2');
    s.work.git('fsck', '--strict', '--no-dangling');

    // Review requested from the owners (teams by slug, users by name) besides pr.reviewers.
    const asked = first.jobs.map((j) => {
      const p = pullOf(s, j);
      return [j.name, [...new Set(p.reviewers)].sort(), [...new Set(p.teamReviewers)].sort()];
    });
    expect(asked).toEqual([
      ['bump/alice+team-api', ['alice', 'octocat'], ['team-api']],
      ['bump/core', ['octocat'], ['core']],
      ['bump/docs', ['octocat'], []],
      ['bump/team-web', ['octocat'], ['team-web']],
    ]);
    // The body says which owners and why: the CODEOWNERS line that decided; an e-mail owner is named.
    const api = pullOf(s, first.jobs[0]!).body;
    expect(api).toContain('`.github/CODEOWNERS:3` `/api/`');
    expect(api).toContain('`@acme/team-api`, `@alice`');
    expect(pullOf(s, first.jobs[2]!).body).toContain('docs@example.com');
    expect(pullOf(s, first.jobs[2]!).body).toContain('a review cannot be requested from an address');
    expect(pullOf(s, first.jobs[1]!).body).toContain('`.github/CODEOWNERS:1` `*`');
    // Each piece's title says whose part it is.
    expect(first.jobs.map((j) => pullOf(s, j).title)).toEqual([
      'Move to v2 (alice+team-api)',
      'Move to v2 (core)',
      'Move to v2 (docs)',
      'Move to v2 (team-web)',
    ]);

    const pushes = server.requests.filter((r) => r.method === 'POST' && r.service === 'git-receive-pack').length;
    const second = await runPr(s);
    expect(second.jobs.map((j) => [j.name, j.status, j.head, j.pushed?.sent, j.pullRequest?.action])).toEqual(
      first.jobs.map((j) => [j.name, 'unchanged', j.head, false, 'updated']),
    );
    expect(server.requests.filter((r) => r.method === 'POST' && r.service === 'git-receive-pack').length).toBe(pushes);
    expect(s.github.pulls).toHaveLength(4);
    expect(second.jobs.map((j) => j.pullRequest!.number)).toEqual(first.jobs.map((j) => j.pullRequest!.number));
  });

  it('a file moved to other owners between two runs: its old piece ends empty and its pull request closes', async () => {
    const s = await githubRemote(server, FILES, cleanups);
    const first = await runPr(s);
    const docs = first.jobs.find((j) => j.name === 'bump/docs')!;
    expect(docs.status).toBe('changed');

    // On main, docs/ now belongs to the web team.
    const other = await s.remote.clone();
    writeFileSync(join(other.dir, '.github/CODEOWNERS'), CODEOWNERS.replace('/docs/ docs@example.com', '/docs/ @acme/team-web'));
    other.git('add', '-A');
    other.git('commit', '-qm', 'docs belong to web');
    await other.gitAsync(...server.authArgs(), 'push', '-q', 'origin', 'main');
    await s.work.gitAsync(...server.authArgs(), 'pull', '-q', '--ff-only');

    const second = await runPr(s);
    expect(second.jobs.map((j) => [j.name, j.status, j.files.map((f) => f.path), j.pullRequest?.action])).toEqual([
      ['bump/alice+team-api', 'changed', ['api/c.ts'], 'updated'],
      ['bump/core', 'changed', ['README.md'], 'updated'],
      ['bump/team-web', 'changed', ['docs/d.md', 'web/a.ts', 'web/b.ts'], 'updated'],
      ['bump/docs', 'empty', [], 'closed'],
    ]);
    const closed = s.github.pulls.find((p) => p.head === 'scion/bump/docs')!;
    expect(closed.state).toBe('closed');
    expect(closed.comments[0]).toContain('no longer needed');
    // Only scion wrote the docs piece's branch: it is deleted on the remote; the web piece now holds docs/d.md.
    expect(s.remote.git('for-each-ref', 'refs/heads/scion/bump/docs')).toBe('');
    expect(s.remote.git('show', 'scion/bump/team-web:docs/d.md')).toBe('v2');
    expect(s.github.pulls.filter((p) => p.state === 'open')).toHaveLength(3);

    // status reads a piece like any job: one row per piece of the report, the closed one too.
    writeFileSync(join(s.work.dir, '..', 'r.json'), JSON.stringify(second));
    const status = await scion(['status', '--report', join(s.work.dir, '..', 'r.json'), '--repo', s.work.dir, '--json'], { cwd: s.work.dir, env: s.env });
    expect(status.code, status.stderr).toBe(0);
    expect((JSON.parse(status.stdout) as { branch: string; state: string }[]).map((r) => [r.branch, r.state])).toEqual([
      ['scion/bump/alice+team-api', 'open'],
      ['scion/bump/core', 'open'],
      ['scion/bump/team-web', 'open'],
      ['scion/bump/docs', 'closed'],
    ]);
    // branches --prune deletes the local branch of the piece whose pull request closed, and only it.
    const pruned = await scion(['branches', '--prune', '--repo', s.work.dir], { cwd: s.work.dir, env: s.env });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain('deleted scion/bump/docs');
    expect(
      s.work
        .git('branch', '--list', 'scion/*')
        .split('\n')
        .map((b) => b.trim()),
    ).toEqual(['scion/bump/alice+team-api', 'scion/bump/core', 'scion/bump/team-web']);
    // With that branch gone, the next run no longer reports the docs piece.
    expect((await runPr(s)).jobs.map((j) => j.name)).toEqual(['bump/alice+team-api', 'bump/core', 'bump/team-web']);
  });

  it('a fresh clone (as CI checks out) finds the pieces of earlier runs on the remote and closes the one that disappeared', async () => {
    const s = await githubRemote(server, FILES, cleanups);
    await runPr(s);
    const other = await s.remote.clone();
    writeFileSync(join(other.dir, '.github/CODEOWNERS'), CODEOWNERS.replace('/docs/ docs@example.com\n', ''));
    other.git('commit', '-qam', 'docs have no owner of their own');
    await other.gitAsync(...server.authArgs(), 'push', '-q', 'origin', 'main');

    const fresh = await s.remote.clone();
    const res = await scion(['run', RECIPE, '--repo', fresh.dir, '--push', '--pr', '--pr-interval', '0', '--json'], { cwd: fresh.dir, env: s.env });
    expect(res.code, res.stderr).toBe(0);
    const report = JSON.parse(res.stdout) as RunReport;
    expect(report.jobs.map((j) => [j.name, j.status, j.files.map((f) => f.path), j.pullRequest?.action])).toEqual([
      // The base moved, so every piece is rewritten on it.
      ['bump/alice+team-api', 'changed', ['api/c.ts'], 'updated'],
      ['bump/core', 'changed', ['README.md', 'docs/d.md'], 'updated'],
      ['bump/team-web', 'changed', ['web/a.ts', 'web/b.ts'], 'updated'],
      ['bump/docs', 'empty', [], 'closed'],
    ]);
    expect(s.github.pulls.find((p) => p.head === 'scion/bump/docs')!.state).toBe('closed');
    expect(s.github.pulls).toHaveLength(4);
  });
});
