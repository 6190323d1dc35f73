// The guards through the CLI, against a model that cheats: asked to make a failing test pass, it
// tries each shortcut in turn (delete the test, empty it, remove the failing it(), add .skip, add
// // @ts-ignore, set "strict": false). Each is refused with a tool error the next request carries,
// nothing of it is written, and the job ends failed with kind guard and every refusal listed. The same
// job with a model that fixes the code passes, in the agent step and in a verify fix round alike.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scion } from '../support/cli.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import type { RunReport } from '../../src/model/types.js';
import { fakeApi, type FakeApi, type MessagesBody } from './fake-api.js';
import { KEY } from './mem-files.js';
import { done, message, tool, toolResults, turnOf } from './script.js';

const makeRepo = reposAfterEach();
const cleanups = cleanupAfterEach();
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

const FAILING_IT = "it('adds two numbers', () => {\n  assert.equal(add(1, 2), 3);\n});\n";
const HEADER = "import { it } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/math.ts';\n";
const TEST = `${HEADER}\n${FAILING_IT}\nit('adds zero', () => {\n  assert.equal(add(5, 0), 5);\n});\n`;
const FILES = {
  'src/math.ts': 'export function add(a: number, b: number): number {\n  return a - b;\n}\n',
  'test/math.test.ts': TEST,
  'tsconfig.json': '{\n  "compilerOptions": {\n    "strict": true,\n    "noEmit": true\n  }\n}\n',
};

const readAll = ['test/math.test.ts', 'src/math.ts', 'tsconfig.json'].map((file_path) => tool('read_file', { file_path }));

/** The cheats, one a turn, after reading the files. */
const CHEATS = [
  tool('write_file', { file_path: 'test/math.test.ts', content: '' }),
  tool('write_file', { file_path: 'test/math.test.ts', content: '// These tests moved to test/math.old.ts.\n' }),
  tool('edit_file', { file_path: 'test/math.test.ts', old_string: `${FAILING_IT}\n`, new_string: '' }),
  tool('edit_file', { file_path: 'test/math.test.ts', old_string: "it('adds two numbers'", new_string: "it.skip('adds two numbers'" }),
  tool('edit_file', { file_path: 'src/math.ts', old_string: '  return a - b;', new_string: '  // @ts-ignore\n  return a - b;' }),
  tool('edit_file', { file_path: 'tsconfig.json', old_string: '"strict": true', new_string: '"strict": false' }),
];
const CHEAT_GUARDS = ['testFiles', 'testFiles', 'testCount', 'skips', 'suppressions', 'config'];

const HONEST = [[tool('read_file', { file_path: 'src/math.ts' })], [tool('edit_file', { file_path: 'src/math.ts', old_string: 'a - b', new_string: 'a + b' })]];

/** A model that answers turn n of every conversation with `turns[n]`, then stops; the requests are kept. */
async function model(turns: ReturnType<typeof tool>[][], bodies: MessagesBody[]): Promise<FakeApi> {
  const api = await fakeApi((body) => {
    bodies.push(body);
    const n = turnOf(body);
    return message(turns[n] ?? done('All tests pass now.'));
  });
  cleanups.push(() => api.close());
  return api;
}

const agentRecipe = (maxTurns: number) => `name: make-green
steps:
  - agent:
      prompt: Make the failing test in test/math.test.ts pass
      per: job
      maxTurns: ${maxTurns}
verify:
  - run: "${TSX} --test test/math.test.ts"
`;

const fixRecipe = `name: fix-green
steps:
  - run: "true"
verify:
  - run: "${TSX} --test test/math.test.ts"
    fix: { agent: { prompt: "Make the failing test pass", maxRounds: 1, maxTurns: 6 } }
`;

async function run(recipe: string, dir: string, url: string) {
  const file = recipeFile(recipe);
  const r = await scion(['run', file, '--repo', dir, '--json'], { cwd: dir, env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url } });
  return { ...r, report: JSON.parse(r.stdout) as RunReport };
}

describe('guards through the CLI', () => {
  it('refuse every cheat of the agent step with a tool error the next request carries; the job fails with kind guard', async () => {
    const repo = await makeRepo(FILES);
    const base = repo.head();
    const bodies: MessagesBody[] = [];
    const api = await model([readAll, ...CHEATS.map((c) => [c])], bodies);

    const r = await run(agentRecipe(10), repo.dir, api.url);
    expect(r.code).toBe(1);
    // One request per turn: the reads, six cheats, the closing sentence.
    expect(api.messages()).toHaveLength(8);
    for (const [i, guard] of CHEAT_GUARDS.entries()) {
      const results = toolResults(bodies[i + 2]!);
      expect(results, `cheat ${i + 1}`).toHaveLength(1);
      expect(results[0]!.is_error).toBe(true);
      expect(results[0]!.content).toMatch(/^Error \(guard\): /);
      expect(results[0]!.content).toContain('Nothing was changed.');
      expect(results[0]!.content).toContain(guard === 'config' ? 'tsconfig.json holds the settings the checks read' : 'the guards hold that');
    }
    const job = r.report.jobs[0]!;
    expect(job.status).toBe('failed');
    expect(job.errors.map((e) => e.kind)).toEqual(['guard']);
    expect(job.errors[0]!.message).toContain('6 refused');
    expect(job.refusals!.map((x) => x.guard)).toEqual(CHEAT_GUARDS);
    expect(job.refusals!.map((x) => x.file)).toEqual([...Array(4).fill('test/math.test.ts'), 'src/math.ts', 'tsconfig.json']);
    expect(job.refusals!.every((x) => x.step === 0)).toBe(true);
    // Nothing the model was refused was written: no change, no branch, the checkout as it was.
    expect(job.files).toEqual([]);
    expect(() => repo.git('rev-parse', '--verify', 'refs/heads/scion/make-green')).toThrow();
    expect(repo.head()).toBe(base);
    expect(repo.git('status', '--porcelain')).toBe('');

    // The human summary lists the refusals under the job.
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: api.url };
    const human = await scion(['run', recipeFile(agentRecipe(10)), '--repo', repo.dir, '--no-cache'], { cwd: repo.dir, env });
    expect(human.stdout).toContain('guards refused 6 model edits:');
    expect(human.stdout).toContain('step 1, tsconfig.json: config (edit_file)');
  });

  it('let a model that fixes the code pass: the test runs green and the fix is committed', async () => {
    const repo = await makeRepo(FILES);
    const api = await model(HONEST, []);
    const r = await run(agentRecipe(6), repo.dir, api.url);
    expect(r.report.jobs[0]!.errors).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.report.jobs[0]!.status).toBe('changed');
    expect(r.report.jobs[0]!.refusals).toBeUndefined();
    expect(repo.git('show', 'scion/make-green:src/math.ts')).toContain('return a + b;');
    expect(repo.git('show', 'scion/make-green:test/math.test.ts')).toBe(TEST.trimEnd());
  });

  it('are relaxed by name in the recipe, the others still holding; a single refusal is a lesson, listed but not a failure', async () => {
    const repo = await makeRepo({ ...FILES, 'checks/math.ts': "import { add } from '../src/math.ts';\nif (add(1, 2) !== 3) throw new Error('add');\n" });
    const bodies: MessagesBody[] = [];
    const api = await model(
      [
        [tool('read_file', { file_path: 'src/math.ts' }), tool('read_file', { file_path: 'checks/math.ts' })],
        // Allowed: the recipe turned the suppressions guard off for this migration.
        [tool('edit_file', { file_path: 'src/math.ts', old_string: '  return a - b;', new_string: '  // @ts-ignore\n  return a - b;' })],
        // Refused: checks/math.ts is a test file by the recipe's own globs, and the testFiles guard holds.
        [tool('write_file', { file_path: 'checks/math.ts', content: '// moved\n' })],
        [tool('edit_file', { file_path: 'src/math.ts', old_string: 'a - b', new_string: 'a + b' })],
      ],
      bodies,
    );
    const recipe = `name: relaxed
guards: { suppressions: false, tests: ["checks/**"] }
steps:
  - agent: { prompt: Make checks/math.ts pass, per: job, maxTurns: 8 }
`;
    const r = await run(recipe, repo.dir, api.url);
    expect(toolResults(bodies[2]!)[0]!.is_error).toBeFalsy();
    expect(toolResults(bodies[3]!)[0]).toMatchObject({ is_error: true });
    expect(toolResults(bodies[3]!)[0]!.content).toContain('This edit would empty checks/math.ts, a test file');
    expect(toolResults(bodies[4]!)[0]!.is_error).toBeFalsy();
    const job = r.report.jobs[0]!;
    expect(r.code).toBe(0);
    expect(job.status).toBe('changed');
    expect(job.errors).toEqual([]);
    expect(job.refusals).toEqual([expect.objectContaining({ step: 0, file: 'checks/math.ts', guard: 'testFiles', tool: 'write_file' })]);
    expect(repo.git('show', 'scion/relaxed:src/math.ts')).toContain('// @ts-ignore\n  return a + b;');
    expect(repo.git('show', 'scion/relaxed:checks/math.ts')).toContain("throw new Error('add')");

    // The same edits under every guard: the suppression is refused too, and two refusals fail the job.
    const strict = await run(recipe.replace('suppressions: false, ', '').replace('name: relaxed', 'name: strict'), repo.dir, api.url);
    expect(strict.code).toBe(1);
    expect(strict.report.jobs[0]!.errors.map((e) => e.kind)).toEqual(['guard']);
    expect(strict.report.jobs[0]!.refusals!.map((x) => x.guard)).toEqual(['suppressions', 'testFiles']);
  });

  it('do not replay a cached answer they now refuse: the model is asked again', async () => {
    const repo = await makeRepo(FILES);
    const bodies: MessagesBody[] = [];
    const ignore = tool('edit_file', { file_path: 'src/math.ts', old_string: '  return a - b;', new_string: '  // @ts-ignore\n  return a - b;' });
    const api = await model([[tool('read_file', { file_path: 'src/math.ts' })], [ignore]], bodies);
    const recipe = (name: string, guards: string) => `name: ${name}\n${guards}steps:\n  - agent: { prompt: Quiet the checker, per: job, maxTurns: 4 }\n`;
    const relaxed = await run(recipe('quiet', 'guards: { suppressions: false }\n'), repo.dir, api.url);
    expect(relaxed.report.jobs[0]!.status).toBe('changed');
    expect(api.messages()).toHaveLength(3);

    // The same prompt over the same files has a cached answer; under every guard it is not written.
    const strict = await run(recipe('strict', ''), repo.dir, api.url);
    expect(strict.stderr).toContain('not replayed (a guard refuses it: This edit adds @ts-ignore');
    expect(api.messages()).toHaveLength(6);
    expect(toolResults(bodies[5]!)[0]).toMatchObject({ is_error: true });
    const job = strict.report.jobs[0]!;
    expect(job.status).toBe('empty');
    expect(job.refusals!.map((x) => [x.guard, x.tool])).toEqual([['suppressions', 'edit_file']]);
  });

  it('guard the verify fix rounds the same way: a cheating fix fails with kind guard, an honest one is committed as group fix', async () => {
    const repo = await makeRepo(FILES);
    const bodies: MessagesBody[] = [];
    const cheat = await model([[tool('read_file', { file_path: 'test/math.test.ts' })], [CHEATS[3]!], [CHEATS[2]!]], bodies);
    const bad = await run(fixRecipe, repo.dir, cheat.url);
    expect(bad.code).toBe(1);
    const job = bad.report.jobs[0]!;
    expect(job.errors.map((e) => e.kind)).toEqual(['guard', 'command-failed']);
    expect(job.refusals!.map((x) => [x.step, x.guard])).toEqual([
      [1, 'skips'],
      [1, 'testCount'],
    ]);
    expect(toolResults(bodies[2]!)[0]!.content).toMatch(/^Error \(guard\)/);
    expect(toolResults(bodies[3]!)[0]!.content).toMatch(/^Error \(guard\)/);

    const good = await model(HONEST, []);
    const ok = await run(fixRecipe, repo.dir, good.url);
    expect(ok.report.jobs[0]!.errors).toEqual([]);
    expect(ok.code).toBe(0);
    expect(ok.report.jobs[0]!.commits.map((c) => c.group)).toEqual(['fix']);
    expect(repo.git('show', 'scion/fix-green:src/math.ts')).toContain('return a + b;');
  });
});
