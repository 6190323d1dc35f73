// The reports a run leaves, through the CLI: a run-level pull-request body that represents every
// change within GitHub's limit (one change made in 89 packages is one diff, with the places named),
// and `scion status`, which exits 0 once it could read the status, as the README says.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scion } from '../support/cli.js';
import { gitRepo, type TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';

const PACKAGES = Array.from({ length: 89 }, (_, i) => `p${String(i + 1).padStart(2, '0')}`);
const CONTEXT = Array.from({ length: 12 }, (_, k) => `export const v${k} = ${k}; // a context line long enough to make each diff weigh in the body`);

describe('the run-level PR body of 89 jobs making the same change', () => {
  let repo: TestRepo;
  let out: string;
  beforeAll(async () => {
    const files: Record<string, string> = {};
    for (const p of PACKAGES)
      files[`packages/${p}/src/index.ts`] = [`import { legacyLog } from '../../../lib/legacy';`, ...CONTEXT, `legacyLog('${p}');`, ''].join('\n');
    // One package changes differently: its change is shown on its own.
    files['packages/p07/src/index.ts'] = files['packages/p07/src/index.ts']!.replace('// a context line', '// another line');
    repo = await gitRepo(files);
    out = await mkdtemp(join(tmpdir(), 'scion-prbody-'));
  });
  afterAll(async () => {
    await repo.cleanup();
    await rm(out, { recursive: true, force: true });
  });

  it('shows each distinct change once, names every file that has it, and leaves no diff out', async () => {
    const recipe = [
      'name: new-logger',
      'jobs:',
      '  - each: "packages/*"',
      'steps:',
      `  - replace: { old_string: "import { legacyLog } from '../../../lib/legacy';", new_string: "import { log as legacyLog } from '../../../lib/logger';" }`,
      '',
    ].join('\n');
    const body = join(out, 'body.md');
    const r = await scion(['plan', recipeFile(recipe), '--repo', repo.dir, '--pr-body', body], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const md = readFileSync(body, 'utf8');
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).not.toMatch(/left out|not shown|Truncated/);
    // Two distinct changes: the one of 88 packages, and p07's own.
    expect(md.match(/^```diff$/gm)).toHaveLength(2);
    expect(md).toContain('`packages/p01/src/index.ts`\n\nThe same change in 87 other files: `packages/p02/src/index.ts` (new-logger/p02),');
    expect(md).toContain(', … and 77 more.');
    // Every other package points at the change it shares; p07 is not among them.
    for (const p of PACKAGES.filter((x) => x !== 'p01' && x !== 'p07')) {
      expect(md).toContain(`- \`packages/${p}/src/index.ts\`: the same change as \`packages/p01/src/index.ts\` in new-logger/p01\n`);
    }
    expect(md).not.toContain('`packages/p07/src/index.ts`: the same change');
    expect(md).toContain("+import { log as legacyLog } from '../../../lib/logger';");
    expect(md.match(/<details>/g)?.length).toBe(md.match(/<\/details>/g)?.length);
  });
});

describe('scion status exits 0 once it could read the status', () => {
  let work: string;
  const repos: TestRepo[] = [];
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'scion-status-exit-'));
    for (const n of [1, 2]) repos.push(await gitRepo({ 'src/log.ts': `legacyLog(${n});\n` }));
    await writeFile(join(work, 'repos.txt'), [...repos.map((r) => r.dir), 'http://127.0.0.1:9/acme/gone.git'].join('\n') + '\n');
  });
  afterAll(async () => {
    for (const r of repos) await r.cleanup();
    await rm(work, { recursive: true, force: true });
  });

  it('of a campaign report where one repository cannot be reached: rows of the others, that repository named on stderr', async () => {
    const recipe = recipeFile('name: new-log\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n');
    const ran = await scion(['run', recipe, '--repos', 'repos.txt', '--cache-dir', 'cache', '--report', 'r.json'], { cwd: work });
    expect(ran.code, ran.stderr).toBe(1);

    const st = await scion(['status', '--report', 'r.json', '--cache-dir', 'cache', '--json'], { cwd: work });
    expect(st.code, st.stderr).toBe(0);
    const rows = JSON.parse(st.stdout) as { repo: string; branch: string; state: string }[];
    expect(rows.map((x) => [x.repo, x.branch, x.state])).toEqual(repos.map((x) => [x.dir, 'scion/new-log', 'none']));
    expect(st.stderr).toMatch(/^scion: one repository could not be read; its jobs are not listed:\n {2}127\.0\.0\.1:9\/acme\/gone: /);

    const table = await scion(['status', '--report', 'r.json', '--cache-dir', 'cache'], { cwd: work });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^REPO\s+BRANCH\s+PR\s+STATE/);
  });

  it("of recipes: the jobs are those a run expands, through the run's own expansion", async () => {
    // A recipe that checks out (a run step) lists the whole base tree, so its `each` finds packages/
    // although its files select only src/: status names the same jobs.
    const mono = await gitRepo({ 'src/a.ts': 'x\n', 'packages/web/a.ts': 'x\n', 'packages/api/a.ts': 'x\n' });
    try {
      const recipe = recipeFile('name: touch\nfiles: { include: ["src/**"] }\njobs:\n  - each: "packages/*"\nsteps:\n  - run: "true"\n');
      const ran = await scion(['run', recipe, '--repo', mono.dir, '--json'], { cwd: mono.dir });
      expect(ran.code, ran.stderr).toBe(0);
      const branches = (JSON.parse(ran.stdout) as { jobs: { branch: string }[] }).jobs.map((j) => j.branch);
      expect(branches).toEqual(['scion/touch/api', 'scion/touch/web']);
      const st = await scion(['status', recipe, '--repo', mono.dir, '--json'], { cwd: mono.dir });
      expect(st.code, st.stderr).toBe(0);
      expect((JSON.parse(st.stdout) as { branch: string }[]).map((x) => x.branch)).toEqual(branches);
    } finally {
      await mono.cleanup();
    }
  });

  it('of recipes in one repository, and exits 2 for a report it cannot read', async () => {
    const recipe = recipeFile('name: new-log\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n');
    const st = await scion(['status', recipe, '--repo', repos[0]!.dir], { cwd: work });
    expect(st.code, st.stderr).toBe(0);
    expect(st.stdout).toMatch(/^scion\/new-log\s+-\s+none\s+none\s+none\s+0$/m);
    await writeFile(join(work, 'bad.json'), '{"not": "a report"}');
    const bad = await scion(['status', '--report', 'bad.json'], { cwd: work });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad.json is not a scion report');
  });
});
