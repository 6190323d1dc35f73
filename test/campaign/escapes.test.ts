// Text from outside never reaches the terminal with a live escape sequence: names in an org listing,
// a host's error body, a failing command's output. Every line scion prints passes the CLI's edge,
// which shows control characters as `\xNN`; scion's own colours still pass on a terminal.
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeRepo } from '../support/fake-github.js';
import { githubRemote } from '../support/git-remote.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { gitRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { fakeGitHubsAfterEach, useGitServer } from '../support/servers.js';

// ESC, BEL, CR, and the 8-bit CSI: none may be printed raw.
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f]/;
const HOSTILE = '\x1b]0;owned\x07\x1b[2J\x1b[H\r\u009b31m';
const SHOWN = '\\x1b]0;owned\\x07\\x1b[2J\\x1b[H\\x0d\\x9b31m';

const cleanups = cleanupAfterEach();
const startFakeGitHub = fakeGitHubsAfterEach();
const server = useGitServer();
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'scion-escapes-'));
  writeFileSync(join(work, 'recipe.yaml'), 'name: new-log\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n');
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the edge: outside text on every line scion prints', () => {
  it('an org listing: names and clone URLs with escape sequences are shown, not obeyed (on a terminal too)', async () => {
    const gh = await startFakeGitHub('acme', 'app');
    gh.orgs.set('acme', [
      fakeRepo(server.url, `acme/locked${HOSTILE}`, { disabled: true }),
      fakeRepo(server.url, 'acme/away', { clone_url: `https://evil.example/acme/${HOSTILE}.git` }),
      fakeRepo(server.url, 'acme/odd', { clone_url: `${server.url}/acme/odd.git@x${HOSTILE}` }),
    ]);
    const env = { ...server.githubEnv(), GITHUB_API_URL: gh.url, HOME: '/nonexistent' };
    for (const tty of [false, true]) {
      const r = await scion(['plan', 'recipe.yaml', '--github-org', 'acme', '--cache-dir', 'cache'], { cwd: work, env, tty });
      expect(r.stderr).toContain(`acme/locked${SHOWN}: left out: GitHub has disabled the repository.`);
      expect(r.stderr).toContain('acme/away: left out: its clone URL');
      expect(r.stdout + r.stderr).not.toMatch(RAW_CONTROL);
    }
  });

  it("a host's error body is shown, not obeyed", async () => {
    const { work: clone, github: gh, env } = await githubRemote(server, { 'a.txt': 'legacyLog(1)\n' }, cleanups);
    const run = await scion(['run', join(work, 'recipe.yaml'), '--repo', clone.dir, '--push', '--report', 'r.json'], { cwd: clone.dir, env });
    expect(run.code, run.stderr).toBe(0);
    gh.intercept = (r) => (r.method === 'POST' ? { status: 422, body: { message: `Validation Failed${HOSTILE}` } } : undefined);
    const pr = await scion(['pr', '--report', 'r.json', '--pr-interval', '0'], { cwd: clone.dir, env });
    expect(pr.code).toBe(1);
    expect(pr.stdout + pr.stderr).toContain(`Validation Failed${SHOWN}`);
    expect(pr.stdout + pr.stderr).not.toMatch(RAW_CONTROL);
  });

  it("a failing command's output, in plain progress and in the summary; scion's own colours still reach a terminal", async () => {
    const r = await gitRepo({ 'a.txt': 'x\n' });
    cleanups.push(r.cleanup);
    const recipe = recipeFile(`name: noisy\nsteps:\n  - run: "printf 'before\\\\033[2J\\\\033]0;owned\\\\007after\\\\r\\\\n'; exit 3"\n`);
    const plain = await scion(['run', recipe, '--repo', r.dir], { cwd: r.dir });
    expect(plain.code).toBe(1);
    expect(plain.stdout + plain.stderr).toContain('before\\x1b[2J\\x1b]0;owned\\x07after');
    expect(plain.stdout + plain.stderr).not.toMatch(RAW_CONTROL);

    const colour = await scion(['run', recipe, '--repo', r.dir], { cwd: r.dir, tty: true, env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(colour.stdout).toContain('\x1b[31m');
    // Only scion's own SGR sequences are raw; the command's are shown.
    expect(colour.stdout.replace(/\x1b\[\d+m/g, '')).not.toMatch(RAW_CONTROL);
    expect(colour.stdout).toContain('before\\x1b[2J\\x1b]0;owned\\x07after');
  });
});
