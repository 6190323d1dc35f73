// The reports a run leaves, through the CLI: a run-level pull-request body that represents every
// change within GitHub's limit (one change made in 89 packages is one diff, with the places named);
// one cause of failure whose messages differ only by a count and a file is one failure group, with
// no template placeholder in its text; a new pull request's body does not call its job "unchanged";
// and `scion status`, which exits 0 once it could read the status, as the README says.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { githubRemote } from '../support/git-remote.js';
import { gitRepo, type TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { useGitServer } from '../support/servers.js';

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

describe('failures of one cause, whose messages differ only by a count and a file', () => {
  let repo: TestRepo;
  let out: string;
  beforeAll(async () => {
    const files: Record<string, string> = {};
    // p1…p5 hold the text 2…6 times (not-unique, each message its own count and file); p6 not at all.
    for (let k = 1; k <= 5; k++) files[`packages/p${k}/index.ts`] = `legacyLog(${k});\n`.repeat(k + 1);
    files['packages/p6/index.ts'] = 'log(6);\n';
    repo = await gitRepo(files);
    out = await mkdtemp(join(tmpdir(), 'scion-groups-'));
  });
  afterAll(async () => {
    await repo.cleanup();
    await rm(out, { recursive: true, force: true });
  });

  it('are one failure group in the PR body and the HTML report, and no heading holds a {placeholder}', async () => {
    const recipe = [
      'name: new-log',
      'jobs:',
      '  - each: "packages/*"',
      'steps:',
      '  - replace: { old_string: "legacyLog(", new_string: "log(" }',
      '    expect: { min: 1 }',
      '',
    ];
    const [body, html, report] = ['body.md', 'report.html', 'report.json'].map((f) => join(out, f)) as [string, string, string];
    const r = await scion(['plan', recipeFile(recipe.join('\n')), '--repo', repo.dir, '--pr-body', body, '--html', html, '--report', report], {
      cwd: repo.dir,
    });
    expect(r.code, r.stderr).toBe(1);
    // Five different messages (a count and a file each) of one cause, and one other cause.
    const errors = (JSON.parse(readFileSync(report, 'utf8')) as RunReport).jobs.flatMap((j) => j.errors);
    expect(errors.map((e) => e.kind)).toEqual(['not-unique', 'not-unique', 'not-unique', 'not-unique', 'not-unique', 'expectation']);
    expect(new Set(errors.filter((e) => e.kind === 'not-unique').map((e) => e.message)).size).toBe(5);

    const md = readFileSync(body, 'utf8');
    expect(md).toContain('### Failures (6 in 2 groups)');
    const mdGroups = md.split('\n').filter((l) => /^- \*\*[a-z-]+\*\*/.test(l));
    expect(mdGroups).toHaveLength(2);
    expect(mdGroups[0]).toMatch(/^- \*\*not-unique\*\* \(code 9\) × 5: Found N matches of the string to replace in the file,/);
    expect(md).toMatch(/In: new-log\/p1 \(step 1, `packages\/p1\/index\.ts`\), new-log\/p2 .*new-log\/p5 \(step 1, `packages\/p5\/index\.ts`\)/);

    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<h2>Failures (6 in 2 groups)</h2>');
    expect(page.match(/<div class="fgroup">/g)).toHaveLength(2);
    expect(page).toMatch(/<span class="kind">not-unique<\/span> \(code 9\) · 5 times in 5 jobs: Found N matches/);

    // Headings and group lines say things in words: never a template's `{file}`, `{count}`, `{…}`.
    const headings = [
      ...md.split('\n').filter((l) => /^#{1,6} |^- \*\*|<summary>/.test(l)),
      ...[...page.matchAll(/<(h[1-6]|summary|p)\b[^>]*>([\s\S]*?)<\/\1>/g)].map((m) => m[2]!),
    ];
    expect(headings.length).toBeGreaterThan(10);
    for (const h of headings) expect(h).not.toMatch(/\{[^{}\s]*\}/);
  });
});

describe('the body of a new pull request for a branch a rerun found up to date', () => {
  const server = useGitServer();
  const cleanups = cleanupAfterEach();

  it('does not say "unchanged": the job is unchanged for the run, but the pull request is new', async () => {
    const s = await githubRemote(server, { 'src/a.ts': "legacyLog('a');\n" }, cleanups);
    const recipe = recipeFile('name: new-log\ndescription: Move to the new logger\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n');
    // The first run writes the branch and pushes nothing; the second finds it as it would write it.
    const first = await scion(['run', recipe, '--repo', s.work.dir], { cwd: s.work.dir, env: s.env });
    expect(first.code, first.stderr).toBe(0);
    const again = await scion(['run', recipe, '--repo', s.work.dir, '--push', '--pr', '--pr-interval', '0', '--json'], { cwd: s.work.dir, env: s.env });
    expect(again.code, again.stderr).toBe(0);
    const job = (JSON.parse(again.stdout) as RunReport).jobs[0]!;
    expect([job.status, job.pushed?.sent, job.pullRequest?.action]).toEqual(['unchanged', true, 'created']);
    expect(s.github.pulls).toHaveLength(1);
    const pull = s.github.pulls[0]!;
    expect(pull.body).toContain('src/a.ts');
    expect(pull.body).not.toMatch(/unchanged/i);
    expect(pull.title).not.toMatch(/unchanged/i);
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
