// `scion track` and a bulk operation on a campaign's report: each repository's pull request read from
// its own fake GitHub (behind one API URL, as api.github.com is) through its clone in --cache-dir, and
// --repo selecting repositories by glob.
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrackRow, TrackSnapshot } from '../../src/track/types.js';
import { scion } from '../support/cli.js';
import { gitRepo } from '../support/git-repo.js';
import { useFakeGitHubs, useGitServer } from '../support/servers.js';

const NAMES = ['alpha', 'beta', 'gamma'];
const RECIPE = 'name: new-log\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n';

describe('track and bulk operations on a campaign report', () => {
  const server = useGitServer();
  const github = useFakeGitHubs('acme', NAMES, 'all');
  let work: string;
  const id = (name: string) => `${new URL(server.url).host}/acme/${name}`;
  const run = (args: string[]) =>
    scion(args, { cwd: work, env: { ...server.githubEnv(), GITHUB_API_URL: github.url, HOME: '/nonexistent', XDG_CACHE_HOME: join(work, 'xdg') } });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'scion-campaign-track-'));
    const urls: string[] = [];
    for (const name of NAMES) {
      const bare = server.bare(`acme/${name}.git`);
      const src = await gitRepo({ 'src/log.ts': `export const ${name} = legacyLog('${name}');\n` });
      src.git('push', '-q', bare.dir, 'main');
      await src.cleanup();
      urls.push(bare.url);
    }
    writeFileSync(join(work, 'recipe.yaml'), RECIPE);
    writeFileSync(join(work, 'repos.txt'), urls.join('\n') + '\n');
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it("reads every repository's pull request, and comments only where --repo selects", async () => {
    const r = await run(['run', 'recipe.yaml', '--repos', 'repos.txt', '--cache-dir', 'cache', '--push', '--pr', '--pr-interval', '0', '--report', 'c.json']);
    expect(r.code, r.stderr).toBe(0);
    github.fakes['beta']!.pulls[0]!.merged = true;
    github.fakes['beta']!.pulls[0]!.state = 'closed';

    const t = await run(['track', '--report', 'c.json', '--cache-dir', 'cache', '--history', 'h.jsonl', '--json']);
    expect(t.code, t.stderr).toBe(0);
    const out = JSON.parse(t.stdout) as { snapshot: TrackSnapshot; rows: TrackRow[] };
    expect(out.rows.map((row) => [row.repo, row.state, row.pullRequest?.number])).toEqual([
      [id('alpha'), 'open', 100],
      [id('beta'), 'merged', 100],
      [id('gamma'), 'open', 100],
    ]);
    expect(out.snapshot).toMatchObject({ jobs: 3, open: 2, merged: 1, remaining: 3, recipe: 'new-log' });
    expect(JSON.parse(readFileSync(join(work, 'h.jsonl'), 'utf8').trim())).toEqual(out.snapshot);

    const c = await run(['pr', '--report', 'c.json', '--cache-dir', 'cache', '--comment', 'Nudge', '--repo', '*/acme/[ag]*']);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toBe(`${id('alpha')}: #100 scion/new-log: commented\n${id('gamma')}: #100 scion/new-log: commented\n`);
    expect(NAMES.map((n) => github.fakes[n]!.pulls[0]!.comments)).toEqual([['Nudge'], [], ['Nudge']]);
  });
});
