// Knowing the cost first and tuning on a sample, through the CLI: `plan` of an agent recipe sends
// no request (counted at the fake API) and prints per job the files the model would see, their token
// estimate and a price range; `run --max-cost` starts no conversation once the spent cost reaches it;
// `run --sample N` picks the same jobs every time, clusters their failures, and a full run after it
// reuses what the sample paid for.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXED_TOKENS } from '../../src/agent/estimate.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import type { RunReport } from '../../src/model/types.js';
import { fakeApi, type FakeApi, type MessagesBody } from './fake-api.js';
import { KEY } from './mem-files.js';
import { done, firstMessageText, message, tool, turnOf } from './script.js';

const makeRepo = reposAfterEach();
const cleanups = cleanupAfterEach();

async function api(model: Parameters<typeof fakeApi>[0]): Promise<FakeApi> {
  const a = await fakeApi(model);
  cleanups.push(() => a.close());
  return a;
}

const env = (url: string, key: string | undefined = KEY) => ({ ANTHROPIC_BASE_URL: url, ...(key === undefined ? {} : { ANTHROPIC_API_KEY: key }) });

describe('scion plan of an agent recipe', () => {
  it('sends no request and prints each file the model would see, its tokens and the price range', async () => {
    const a = await api(() => message(done()));
    const repo = await makeRepo({
      'src/a.ts': 'export const a = 1;\n'.repeat(40),
      'src/b.ts': 'export const b = 2;\n',
      'src/c.ts': 'export const c = 3;\n'.repeat(200),
      'README.md': '# x\n',
    });
    const recipe = recipeFile(`name: plan-cost
files: { include: ["src/**"] }
steps:
  - agent: { prompt: "Rename the constants", model: claude-sonnet-4-5, maxTurns: 4, maxTokens: 1000 }
verify:
  - run: "false"
    fix: { agent: { maxRounds: 2, maxTurns: 3, maxTokens: 500 } }
`);
    // No API key is needed: nothing is sent.
    const human = await scion(['plan', recipe, '--repo', repo.dir], { cwd: repo.dir, env: env(a.url, undefined) });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Agent estimate (no request was sent; tokens are UTF-8 bytes / 4):');
    expect(human.stdout).toMatch(/plan-cost step 1 \(agent, per file, claude-sonnet-4-5\): 3 conversations, ~[\d,]+ input tokens, \$\d\.\d{4} – \$\d+\.\d+/);
    expect(human.stdout).toContain('    src/a.ts  ~200 tokens');
    expect(human.stdout).toContain('    src/b.ts  ~5 tokens');
    expect(human.stdout).toContain('    src/c.ts  ~1,000 tokens');
    expect(human.stdout).toMatch(/plan-cost step 2 \(verify fix rounds, claude-sonnet-4-5\): 1 conversation, .*\$0\.0000 – /);
    expect(human.stdout).toMatch(/Total: \$\d\.\d{4} – \$\d+\.\d+/);
    expect(human.stdout).not.toContain('README.md');

    const json = await scion(['plan', recipe, '--repo', repo.dir, '--json'], { cwd: repo.dir, env: env(a.url) });
    const estimates = (JSON.parse(json.stdout) as RunReport).jobs[0]!.estimates!;
    const step = estimates[0]!;
    const fix = estimates[1]!;
    expect(step).toMatchObject({ step: 0, model: 'claude-sonnet-4-5', per: 'file', conversations: 3 });
    expect(step.files).toEqual([
      { path: 'src/a.ts', tokens: 200 },
      { path: 'src/b.ts', tokens: 5 },
      { path: 'src/c.ts', tokens: 1000 },
    ]);
    // Each context holds the system prompt and tools, the task and the file in cat -n form.
    expect(step.inputTokens).toBeGreaterThan(3 * FIXED_TOKENS + 1205);
    // One pass at $3 per million input tokens; at most 4 turns of 1,000 output tokens ($15 per million),
    // each resending the context and every earlier answer with a tool result as large.
    expect(step.minUsd).toBeCloseTo((step.inputTokens * 3) / 1e6, 6);
    expect(step.maxUsd).toBeCloseTo(((4 * step.inputTokens + 3 * 1000 * 4 * 3) * 3 + 3 * 4 * 1000 * 15) / 1e6, 6);
    expect(fix).toMatchObject({ step: 1, per: 'fix', conversations: 1, minUsd: 0 });
    expect(fix.maxUsd).toBeGreaterThan(0);
    // Not one request reached the API, in either plan.
    expect(a.requests).toHaveLength(0);
  });
});

describe('scion run --max-cost', () => {
  it('starts no conversation once the spent cost reaches it: the jobs left fail with kind budget, the report says what was spent', async () => {
    // Every answer reports a million input tokens: $3 at claude-sonnet-4-5's price.
    const a = await api(() => message(done(), { input_tokens: 1_000_000, output_tokens: 0 }));
    const repo = await makeRepo({ 'pkgs/a/x.ts': 'a\n', 'pkgs/b/x.ts': 'b\n', 'pkgs/c/x.ts': 'c\n', 'pkgs/d/x.ts': 'd\n' });
    const recipe = recipeFile(`name: costly
jobs: [{ each: "pkgs/*" }]
steps:
  - agent: { prompt: "Do it", model: claude-sonnet-4-5, concurrency: 1 }
`);
    const r = await scion(['run', recipe, '--repo', repo.dir, '--max-cost', '5', '--concurrency', '1', '--json'], { cwd: repo.dir, env: env(a.url) });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as RunReport;
    // $3 after the first conversation is under the budget; $6 after the second is not.
    expect(a.messages()).toHaveLength(2);
    expect(report.jobs.map((j) => [j.name, j.status])).toEqual([
      ['a', 'empty'],
      ['b', 'empty'],
      ['c', 'failed'],
      ['d', 'failed'],
    ]);
    expect(report.jobs[2]!.errors).toEqual([expect.objectContaining({ kind: 'budget', file: 'pkgs/c/x.ts' })]);
    expect(report.jobs[2]!.errors[0]!.message).toContain('--max-cost of $5 was reached ($6.00 spent)');
    expect(report.budget).toEqual({ maxCostUsd: 5, spentUsd: 6, notStarted: 2 });

    // Again, with less: the answers already paid for replay for free whatever the budget; c costs $3,
    // and d is not started. The human summary says so.
    const human = await scion(['run', recipe, '--repo', repo.dir, '--max-cost', '2', '--concurrency', '1'], { cwd: repo.dir, env: env(a.url) });
    expect(human.stdout).toContain('Budget: $3.00 spent of --max-cost $2.00; 1 conversation not started (kind budget).');
    expect(human.stdout).toMatch(/failed +costly\/d[^\n]*\n {2}budget step 1, pkgs\/d\/x\.ts: /);
    expect(a.messages()).toHaveLength(3);

    const bad = await scion(['run', recipe, '--repo', repo.dir, '--max-cost', '0'], { cwd: repo.dir, env: env(a.url) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-cost 0 must be an amount of US dollars above 0');
  });
  it("counts every conversation against the same meter: a job's per-file conversations and its verify fix rounds", async () => {
    const a = await api(() => message(done(), { input_tokens: 1_000_000, output_tokens: 0 }));
    const repo = await makeRepo({ 'src/1.ts': 'one\n', 'src/2.ts': 'two\n', 'src/3.ts': 'three\n' });
    const perFile = recipeFile(`name: files
steps:
  - agent: { prompt: "Do it", model: claude-sonnet-4-5, concurrency: 1 }
`);
    const r = await scion(['run', perFile, '--repo', repo.dir, '--max-cost', '5', '--json'], { cwd: repo.dir, env: env(a.url) });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as RunReport;
    expect(a.messages()).toHaveLength(2);
    expect(report.jobs[0]!.status).toBe('failed');
    expect(report.jobs[0]!.errors).toEqual([expect.objectContaining({ kind: 'budget', step: 0, file: 'src/3.ts' })]);
    expect(report.jobs[0]!.usage.costUsd).toBeCloseTo(6, 6);
    expect(report.budget).toEqual({ maxCostUsd: 5, spentUsd: 6, notStarted: 1 });

    // The job's conversation spends $3 of $2; the fix round of its failing verify command is not started.
    const fixing = recipeFile(`name: fixing
steps:
  - agent: { prompt: "Do it once more", per: job, model: claude-sonnet-4-5 }
verify:
  - run: "false"
    fix: { agent: { model: claude-sonnet-4-5, maxRounds: 2 } }
`);
    const f = await scion(['run', fixing, '--repo', repo.dir, '--max-cost', '2', '--json'], { cwd: repo.dir, env: env(a.url) });
    const job = (JSON.parse(f.stdout) as RunReport).jobs[0]!;
    expect(a.messages()).toHaveLength(3);
    expect(job.status).toBe('failed');
    expect(job.errors.map((e) => [e.step, e.kind])).toEqual([
      [1, 'budget'],
      [1, 'command-failed'],
    ]);
    expect(job.errors[0]!.message).toContain('before the conversation about the job started');
  });

  it('covers a whole campaign with one meter: the repositories reached after the budget start no conversation', async () => {
    const a = await api(() => message(done(), { input_tokens: 1_000_000, output_tokens: 0 }));
    const repos = await Promise.all([0, 1, 2].map((i) => makeRepo({ 'src/x.ts': `x${i}\n` })));
    const work = mkdtempSync(join(tmpdir(), 'scion-budget-campaign-'));
    cleanups.push(() => rmSync(work, { recursive: true, force: true }));
    writeFileSync(join(work, 'repos.txt'), `${repos.map((r) => r.dir).join('\n')}\n`);
    const recipe = recipeFile('name: everywhere\nsteps:\n  - agent: { prompt: "Do it", model: claude-sonnet-4-5 }\n');
    const args = ['--repos', join(work, 'repos.txt'), '--cache-dir', join(work, 'cache'), '--concurrency', '1', '--max-cost', '5', '--json'];
    const r = await scion(['run', recipe, ...args], { cwd: work, env: env(a.url) });
    const report = JSON.parse(r.stdout) as RunReport;
    expect(r.code).toBe(1);
    expect(a.messages()).toHaveLength(2);
    expect(report.jobs.map((j) => [j.repo, j.status, j.errors.map((e) => e.kind)])).toEqual([
      [repos[0]!.dir, 'empty', []],
      [repos[1]!.dir, 'empty', []],
      [repos[2]!.dir, 'failed', ['budget']],
    ]);
    expect(report.budget).toEqual({ maxCostUsd: 5, spentUsd: 6, notStarted: 1 });
  });
});

describe('scion run --sample', () => {
  const pkgs = (n: number, body: (i: number) => string) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`pkgs/p${String(i + 1).padStart(2, '0')}/index.js`, body(i + 1)]));

  it('picks the same jobs spread over the expansion every time, and clusters their failures with counts', async () => {
    // p04 and p09 lack the call (expectation), p07 has it twice (not-unique).
    const repo = await makeRepo(pkgs(10, (i) => (i === 4 || i === 9 ? 'modern();\n' : i === 7 ? 'legacy();\nlegacy();\n' : 'legacy();\n')));
    const recipe = recipeFile(`name: modernise
jobs: [{ each: "pkgs/*" }]
onError: continue
steps:
  - replace: { old_string: "legacy(", new_string: "modern(" }
    expect: { min: 1 }
`);
    const first = await scion(['run', recipe, '--repo', repo.dir, '--sample', '4', '--dry-run', '--json'], { cwd: repo.dir });
    const second = await scion(['run', recipe, '--repo', repo.dir, '--sample', '4', '--dry-run', '--json'], { cwd: repo.dir });
    const a = JSON.parse(first.stdout) as RunReport;
    const b = JSON.parse(second.stdout) as RunReport;
    // The middle of each of four equal stretches of ten: jobs 2, 4, 7 and 9.
    expect(a.jobs.map((j) => j.name)).toEqual(['p02', 'p04', 'p07', 'p09']);
    expect(b.jobs.map((j) => j.name)).toEqual(a.jobs.map((j) => j.name));
    expect(a.sample).toMatchObject({ jobs: 4, of: 10 });
    expect(a.sample!.clusters.map((c) => [c.kind, c.count, c.jobs])).toEqual([
      ['expectation', 2, ['modernise/p04', 'modernise/p09']],
      ['not-unique', 1, ['modernise/p07']],
    ]);
    expect(a.sample!.clusters[0]!.cause).toContain('changed 0 files; its expect wants at least 1');

    const human = await scion(['run', recipe, '--repo', repo.dir, '--sample', '4', '--dry-run'], { cwd: repo.dir });
    expect(human.stdout).toContain('Sample: 4 jobs of 10.');
    expect(human.stdout).toMatch(
      /Failures by cause:\n {2}2 jobs {2}expectation {2}The step replace "legacy\(" changed 0 files[^\n]*\n {2}1 job {3}not-unique {2}/,
    );

    const both = await scion(['run', recipe, '--repo', repo.dir, '--sample', '4', '--shard', '1/2'], { cwd: repo.dir });
    expect(both.code).toBe(2);
  });

  it('clusters failing verify commands by their first diagnostic, whatever file of the job it names', async () => {
    // After the replace, p02 and p04 still call legacy(), p07 declares a var; p09 passes.
    const repo = await makeRepo({
      ...pkgs(10, (i) => (i === 2 || i === 4 ? 'old();\nlegacy();\n' : i === 7 ? 'old();\nvar x = 1;\n' : 'old();\n')),
      'check.mjs': [
        "import { readFileSync } from 'node:fs';",
        'const file = `pkgs/${process.env.SCION_JOB}/index.js`;',
        "const lines = readFileSync(file, 'utf8').split('\\n');",
        'let bad = 0;',
        'lines.forEach((l, i) => {',
        "  if (l.includes('legacy(')) { bad++; console.log(`${file}:${i + 1}:1: error: legacy() is still called`); }",
        "  if (l.startsWith('var ')) { bad++; console.log(`${file}:${i + 1}:1: error: var is not allowed`); }",
        '});',
        'process.exit(bad > 0 ? 1 : 0);',
        '',
      ].join('\n'),
    });
    const recipe = recipeFile(`name: tidy
jobs: [{ each: "pkgs/*" }]
steps:
  - replace: { old_string: "old(", new_string: "new(" }
verify:
  - run: "node check.mjs"
`);
    const r = await scion(['run', recipe, '--repo', repo.dir, '--sample', '4', '--json'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as RunReport;
    expect(report.jobs.map((j) => [j.name, j.status])).toEqual([
      ['p02', 'failed'],
      ['p04', 'failed'],
      ['p07', 'failed'],
      ['p09', 'changed'],
    ]);
    expect(report.sample!.clusters.map((c) => [c.kind, c.count, c.jobs])).toEqual([
      ['command-failed', 2, ['tidy/p02', 'tidy/p04']],
      ['command-failed', 1, ['tidy/p07']],
    ]);
    expect(report.sample!.clusters[0]!.cause).toContain('legacy() is still called');
    expect(report.sample!.clusters[1]!.cause).toContain('var is not allowed');
  });

  it('is reused by the full run that follows: the sampled jobs cost nothing the second time', async () => {
    const a = await api((body) =>
      turnOf(body) === 0 ? message([tool('edit_file', { file_path: fileOf(body), old_string: 'legacy(', new_string: 'modern(' })]) : message(done()),
    );
    const repo = await makeRepo(pkgs(5, () => 'legacy();\n'));
    const recipe = recipeFile(`name: agent-modernise
jobs: [{ each: "pkgs/*" }]
steps:
  - agent: { prompt: "Call modern instead of legacy" }
`);
    const sample = await scion(['run', recipe, '--repo', repo.dir, '--sample', '2', '--json'], { cwd: repo.dir, env: env(a.url) });
    expect((JSON.parse(sample.stdout) as RunReport).jobs.map((j) => [j.name, j.status])).toEqual([
      ['p02', 'changed'],
      ['p04', 'changed'],
    ]);
    expect(a.messages()).toHaveLength(4);
    const full = await scion(['run', recipe, '--repo', repo.dir, '--json'], { cwd: repo.dir, env: env(a.url) });
    const report = JSON.parse(full.stdout) as RunReport;
    // Three new conversations of two requests each; the sampled jobs replayed and found their branches as they were.
    expect(a.messages()).toHaveLength(10);
    expect(report.jobs.map((j) => [j.name, j.status])).toEqual([
      ['p01', 'changed'],
      ['p02', 'unchanged'],
      ['p03', 'changed'],
      ['p04', 'unchanged'],
      ['p05', 'changed'],
    ]);
  });

  it('spreads a campaign sample over its repositories, cloning none that gets no share', async () => {
    const repos = await Promise.all([0, 1, 2].map(() => makeRepo(pkgs(2, () => 'legacy();\n'))));
    const work = mkdtempSync(join(tmpdir(), 'scion-sample-campaign-'));
    cleanups.push(() => rmSync(work, { recursive: true, force: true }));
    writeFileSync(join(work, 'repos.txt'), `${repos.map((r) => r.dir).join('\n')}\n`);
    const recipe = recipeFile('name: spread\njobs: [{ each: "pkgs/*" }]\nsteps:\n  - replace: { old_string: "legacy(", new_string: "modern(" }\n');
    const r = await scion(['run', recipe, '--repos', join(work, 'repos.txt'), '--sample', '2', '--dry-run', '--json'], { cwd: work });
    const report = JSON.parse(r.stdout) as RunReport;
    expect(report.jobs.map((j) => [j.repo, j.name])).toEqual([
      [repos[0]!.dir, 'p02'],
      [repos[2]!.dir, 'p02'],
    ]);
    expect(report.sample).toMatchObject({ jobs: 2, of: null, clusters: [] });
  });
});

/** The file a per-file conversation is about (shown in its first message). */
function fileOf(body: MessagesBody): string {
  return /<file path="([^"]+)">/.exec(firstMessageText(body))?.[1] ?? '';
}
