// A campaign with a split recipe through the CLI: two repositories behind git http-backend on loopback,
// each with its own CODEOWNERS; each repository's pieces pushed to its own remote, reported per
// repository, and grouped under their job in the merged pull-request body.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { gitRepo, runGit } from '../support/git-repo.js';
import { useGitServer } from '../support/servers.js';

const server = useGitServer();
const cleanups = cleanupAfterEach();

describe('a campaign with split', () => {
  it("splits each repository's change by its own CODEOWNERS and pushes the pieces to its own remote", async () => {
    const work = await mkdtemp(join(tmpdir(), 'scion-split-campaign-'));
    cleanups.push(() => rm(work, { recursive: true, force: true }));
    const owners: Record<string, string> = { alpha: '/src/ @acme/alpha-src\n', beta: '* @beta-owner\n' };
    const urls: string[] = [];
    const bares: Record<string, string> = {};
    for (const name of ['alpha', 'beta']) {
      const bare = server.bare(`acme/${name}.git`);
      bares[name] = bare.dir;
      const src = await gitRepo({ CODEOWNERS: owners[name]!, 'src/log.ts': 'legacyLog(1);\n', 'README.md': 'legacyLog(2)\n' });
      src.git('push', '-q', bare.dir, 'main');
      await src.cleanup();
      urls.push(bare.url);
    }
    writeFileSync(join(work, 'repos.txt'), `${urls.join('\n')}\n`);
    writeFileSync(join(work, 'recipe.yaml'), 'name: new-log\nsplit: { by: owners }\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n');
    const env = { ...server.githubEnv(), HOME: '/nonexistent' };
    const res = await scion(['run', 'recipe.yaml', '--repos', 'repos.txt', '--cache-dir', 'cache', '--push', '--report', 'r.json'], { cwd: work, env });
    expect(res.code, res.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(work, 'r.json'), 'utf8')) as RunReport;
    const host = new URL(server.url).host;
    expect(report.jobs.map((j) => [j.repo, j.name, j.owners, j.files.map((f) => f.path), j.status])).toEqual([
      [`${host}/acme/alpha`, 'new-log/alpha-src', ['@acme/alpha-src'], ['src/log.ts'], 'changed'],
      [`${host}/acme/alpha`, 'new-log/unowned', [], ['README.md'], 'changed'],
      [`${host}/acme/beta`, 'new-log/beta-owner', ['@beta-owner'], ['README.md', 'src/log.ts'], 'changed'],
    ]);
    for (const j of report.jobs) {
      const bare = bares[j.repo!.split('/').pop()!]!;
      expect(runGit(bare, 'rev-parse', j.branch)).toBe(j.head);
      expect(j.pushed?.sent).toBe(true);
      runGit(bare, 'fsck', '--strict', '--no-dangling');
    }

    // The run's pull-request body groups the pieces under their job, per repository, with their owners.
    const merged = await scion(['merge-reports', 'r.json', '--pr-body', 'body.md'], { cwd: work, env });
    expect(merged.code, merged.stderr).toBe(0);
    const body = readFileSync(join(work, 'body.md'), 'utf8');
    expect(body).toContain('### Jobs split by owner');
    expect(body).toContain(`- \`${host}/acme/alpha\` · **new-log**: 2 pieces`);
    expect(body).toContain('  - `alpha-src` · `@acme/alpha-src` · `scion/new-log/alpha-src`');
    expect(body).toContain(`- \`${host}/acme/beta\` · **new-log**: 1 piece`);

    // A rerun over the cached clones changes nothing.
    const again = await scion(['run', 'recipe.yaml', '--repos', 'repos.txt', '--cache-dir', 'cache', '--json'], { cwd: work, env });
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as RunReport).jobs.map((j) => j.status)).toEqual(['unchanged', 'unchanged', 'unchanged']);
  });
});
