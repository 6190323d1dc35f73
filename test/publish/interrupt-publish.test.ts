// SIGINT while `scion run --push --pr` publishes, and while a campaign clones (the real CLI as its own
// process, a git http-backend and the fake GitHub on 127.0.0.1): the request under way when the signal
// comes may end, but no push, clone or request is sent after it, counted at the servers. The signal
// is sent by the server itself as the chosen request arrives, so the test does not depend on timing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobReport, RunReport } from '../../src/model/types.js';
import { githubRemote, type GitHubRemote } from '../support/git-remote.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { gitRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { spawnScion, type Spawned } from '../support/spawn-cli.js';
import { useGitServer } from '../support/servers.js';

const NAMES = ['a', 'b', 'c', 'd'];
const RECIPE = recipeFile(
  `name: pub\njobs:\n${NAMES.map((n) => `  - { name: ${n}, files: { include: ["${n}.txt"] } }\n`).join('')}` +
    'steps:\n  - replace: { old_string: "v1", new_string: "v2", replace_all: true }\n',
);

const server = useGitServer();
const cleanups = cleanupAfterEach();

async function setup(): Promise<GitHubRemote> {
  const s = await githubRemote(server, Object.fromEntries(NAMES.map((n) => [`${n}.txt`, `uses v1\n`])), cleanups);
  cleanups.push(() => void (server.onArrival = undefined));
  return s;
}

function start(s: GitHubRemote): { cli: Spawned; report: string } {
  const report = join(s.work.dir, '..', 'report.json');
  const cli = spawnScion(['run', RECIPE, '--repo', s.work.dir, '--push', '--pr', '--pr-interval', '0', '--report', report], { cwd: s.work.dir, env: s.env });
  cleanups.push(() => void (cli.child.exitCode === null && cli.child.signalCode === null && cli.child.kill('SIGKILL')));
  return { cli, report };
}

const isPush = (r: { method: string; service: string | null }) => r.method === 'POST' && r.service === 'git-receive-pack';
const remoteBranches = (s: GitHubRemote) => s.work.gitAsync(...server.authArgs(), 'ls-remote', 'origin', 'refs/heads/scion/*');

function readReport(file: string): RunReport {
  return JSON.parse(readFileSync(file, 'utf8')) as RunReport;
}

function expectInterrupted(job: JobReport): void {
  expect(job.status).toBe('failed');
  expect(job.errors.map((e) => e.kind)).toEqual(['interrupted']);
}

describe('SIGINT while publishing', () => {
  it('during the pushes: the push under way ends, no other push and no pull request follows; exit 130, report written', async () => {
    const s = await setup();
    const { cli, report } = start(s);
    let pushes = 0;
    let afterSignal = 0;
    server.onArrival = (r) => {
      if (pushes > 0) afterSignal++;
      else if (isPush(r)) {
        pushes++;
        cli.child.kill('SIGINT');
      }
    };
    const res = await cli.done;
    server.onArrival = undefined;
    expect(res.code, res.stderr).toBe(130);
    expect(afterSignal).toBe(0);
    expect(s.github.requests).toEqual([]);

    const rep = readReport(report);
    const pushed = rep.jobs.filter((j) => j.pushed?.sent === true);
    expect(pushed.map((j) => j.name)).toEqual(['a']);
    for (const j of rep.jobs.filter((x) => x.name !== 'a')) {
      expectInterrupted(j);
      expect(j.pushed).toBeUndefined();
      // The branch was written locally before the signal: it stays for the next run to push.
      expect(s.work.git('rev-parse', `refs/heads/${j.branch}`)).toBe(j.head);
    }
    expect((await remoteBranches(s)).split('\n').map((l) => l.split('\t')[1])).toEqual(['refs/heads/scion/pub/a']);
    s.work.git('fsck', '--strict');
  }, 60_000);

  it('during the pull requests: no request after the one under way; exit 130, report written', async () => {
    const s = await setup();
    const { cli, report } = start(s);
    let signalled = false;
    let afterSignal = 0;
    s.github.intercept = (r) => {
      if (signalled) afterSignal++;
      else if (r.method === 'POST' && r.path.endsWith('/pulls')) {
        signalled = true;
        cli.child.kill('SIGINT');
      }
      return undefined;
    };
    let pushesAfter = 0;
    server.onArrival = () => void (signalled && pushesAfter++);
    const res = await cli.done;
    expect(res.code, res.stderr).toBe(130);
    expect(afterSignal).toBe(0);
    expect(pushesAfter).toBe(0);
    expect(s.github.pulls.map((p) => p.head)).toEqual(['scion/pub/a']);

    const rep = readReport(report);
    expect(rep.jobs.map((j) => j.pushed?.sent)).toEqual([true, true, true, true]);
    expect(rep.jobs[0]!.pullRequest?.action).toBe('created');
    for (const j of rep.jobs.slice(1)) {
      expectInterrupted(j);
      expect(j.pullRequest).toBeUndefined();
    }
  }, 60_000);
});

describe('SIGINT while a campaign clones', () => {
  it('no clone or fetch starts after it; the jobs of every repository end interrupted; exit 130, report written', async () => {
    const work = mkdtempSync(join(tmpdir(), 'scion-campaign-int-'));
    cleanups.push(() => rmSync(work, { recursive: true, force: true }));
    const urls: string[] = [];
    for (const n of ['one', 'two', 'three']) {
      const bare = server.bare(`acme/int-${n}.git`);
      const src = await gitRepo({ 'a.txt': 'uses v1\n' });
      src.git('push', '-q', bare.dir, 'main');
      await src.cleanup();
      urls.push(bare.url);
    }
    writeFileSync(join(work, 'repos.txt'), `${urls.join('\n')}\n`);
    writeFileSync(join(work, 'recipe.yaml'), 'name: camp\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n');
    const cli = spawnScion(['run', 'recipe.yaml', '--repos', 'repos.txt', '--cache-dir', 'cache', '--concurrency', '1', '--report', 'report.json'], {
      cwd: work,
      env: { ...server.githubEnv(), HOME: work },
    });
    cleanups.push(() => void (cli.child.exitCode === null && cli.child.signalCode === null && cli.child.kill('SIGKILL')));
    // The first repository's pack is being sent: the signal comes with it.
    let signalled = false;
    let afterSignal = 0;
    server.onArrival = (r) => {
      if (signalled) afterSignal++;
      else if (r.method === 'POST' && r.service === 'git-upload-pack') {
        signalled = true;
        cli.child.kill('SIGINT');
      }
    };
    const res = await cli.done;
    server.onArrival = undefined;
    expect(res.code, res.stderr).toBe(130);
    expect(signalled).toBe(true);
    expect(afterSignal).toBe(0);
    const rep = readReport(join(work, 'report.json'));
    expect(rep.jobs).toHaveLength(3);
    for (const j of rep.jobs) expectInterrupted(j);
    expect(rep.jobs.map((j) => j.head)).toEqual([null, null, null]);
  }, 60_000);
});
