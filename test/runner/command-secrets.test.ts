// A credential a command writes is refused like one a `write` step would write: through the CLI, a
// `run` step that puts a token in .npmrc (run for real, then replayed from the step cache) fails with
// kind `secret` naming the file, and the file reaches no commit. A token the file already held is not
// "added" (the engine's own rule), and a verify command's writes never reach a commit at all.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobReport, RunReport } from '../../src/model/types.js';
import { KEY } from '../agent/mem-files.js';
import { done, message, tool, toolResults, turnOf } from '../agent/script.js';
import { scion } from '../support/cli.js';
import { reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import { fakeApisAfterEach } from '../support/servers.js';

const repo = reposAfterEach();
const fakeApi = fakeApisAfterEach();

// The npm token shape the engine's secret check knows (npm_ and 36 letters or digits).
const NPM_TOKEN = 'npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const WRITE_NPMRC = 'echo //registry.npmjs.org/:_authToken=$NPM_TOKEN > .npmrc';

type Ran = { code: number; job: JobReport; stderr: string };

async function run(dir: string, recipe: string, extra: string[] = [], env: Record<string, string> = {}): Promise<Ran> {
  const res = await scion(['run', recipe, '--repo', dir, '--json', ...extra], { cwd: dir, env: { NPM_TOKEN, ...env } });
  expect(res.stderr).not.toContain('internal error');
  expect(res.stdout, res.stderr).not.toBe('');
  return { code: res.code, job: (JSON.parse(res.stdout) as RunReport).jobs[0]!, stderr: res.stderr };
}

describe('secrets a command writes', () => {
  it('fail the job with kind secret naming the file, run for real and replayed from the step cache; never committed', async () => {
    const r = await repo({ 'src/a.ts': 'legacyLog(1);\n', 'README.md': 'hi\n' });
    const recipe = recipeFile(`name: npmrc
onError: continue
steps:
  - replace: { old_string: "legacyLog(", new_string: "log(" }
  - run: "${WRITE_NPMRC}; echo generated > src/gen.ts; echo ran >> \\"$RUNS\\""
`);
    // Outside the repository: how many times the command really ran.
    const runs = join(recipe, '..', 'runs.txt');
    for (const attempt of ['ran', 'replayed']) {
      const { code, job, stderr } = await run(r.dir, recipe, [], { RUNS: runs });
      expect(code, attempt).toBe(1);
      expect(job.status).toBe('failed');
      expect(job.errors.map((e) => [e.step, e.file, e.kind])).toEqual([[1, '.npmrc', 'secret']]);
      expect(job.errors[0]!.message).toContain('.npmrc');
      // The token itself is in no message and nowhere on the terminal.
      expect(JSON.stringify(job)).not.toContain(NPM_TOKEN);
      expect(stderr).not.toContain(NPM_TOKEN);
      // The rest of the job is committed; .npmrc is not, in any commit of the branch.
      expect(job.files.map((f) => f.path).sort()).toEqual(['src/a.ts', 'src/gen.ts']);
      expect(r.git('log', '--format=%H', job.branch, '--', '.npmrc')).toBe('');
      expect(r.git('ls-tree', '-r', '--name-only', job.branch)).not.toContain('.npmrc');
    }
    // The second run did not run the command: its change came back from the step cache and met the same check.
    expect(readFileSync(runs, 'utf8')).toBe('ran\n');
  });

  it('with onError: stop, the step is undone whole and nothing is committed', async () => {
    const r = await repo({ 'src/a.ts': 'a\n' });
    const recipe = recipeFile(`name: npmrc-stop\nsteps:\n  - run: "${WRITE_NPMRC}"\n`);
    const { code, job } = await run(r.dir, recipe, ['--no-cache']);
    expect(code).toBe(1);
    expect(job.errors.map((e) => [e.file, e.kind, e.code])).toEqual([['.npmrc', 'secret', 0]]);
    expect(job.head).toBeNull();
    expect(r.git('branch', '--list', 'scion/*')).toBe('');
  });

  it('a command that fails after writing the token, under onError: continue, leaves no commit holding it', async () => {
    const r = await repo({ 'src/a.ts': 'legacyLog(1);\n' });
    const recipe = recipeFile(`name: npmrc-failed
onError: continue
steps:
  - run: "${WRITE_NPMRC}; exit 3"
  - replace: { old_string: "legacyLog(", new_string: "log(" }
`);
    const { code, job } = await run(r.dir, recipe, ['--no-cache']);
    expect(code).toBe(1);
    expect(job.errors.map((e) => [e.step, e.file, e.kind])).toEqual([
      [0, null, 'command-failed'],
      [0, '.npmrc', 'secret'],
    ]);
    expect(r.git('ls-tree', '-r', '--name-only', job.branch)).not.toContain('.npmrc');
  });

  it('a token the file already held is not added: the command may rewrite the file around it', async () => {
    const r = await repo({ '.npmrc': `//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n` });
    const recipe = recipeFile(`name: npmrc-kept\nsteps:\n  - run: "echo save-exact=true >> .npmrc"\n`);
    const { code, job } = await run(r.dir, recipe, ['--no-cache']);
    expect(job.errors).toEqual([]);
    expect(code).toBe(0);
    expect(job.files.map((f) => f.path)).toEqual(['.npmrc']);
  });

  it('what a verify command writes is never committed, secret or not', async () => {
    const r = await repo({ 'src/a.ts': 'legacyLog(1);\n' });
    const recipe = recipeFile(`name: verify-writes
steps:
  - replace: { old_string: "legacyLog(", new_string: "log(" }
verify:
  - run: "${WRITE_NPMRC}"
`);
    const { code, job } = await run(r.dir, recipe, ['--no-cache']);
    expect(code).toBe(0);
    expect(job.files.map((f) => f.path)).toEqual(['src/a.ts']);
    expect(r.git('ls-tree', '-r', '--name-only', job.branch)).not.toContain('.npmrc');
  });

  it('a verify fix round that writes the token is refused by the engine, and what it writes instead is committed', async () => {
    const r = await repo({ 'src/a.ts': 'a\n' });
    const answers: { content: string; is_error?: boolean }[][] = [];
    const api = await fakeApi((body) => {
      if (turnOf(body) === 0) {
        return message([
          tool('write_file', { file_path: 'src/ok.ts', content: `export const token = '${NPM_TOKEN}';\n` }),
          tool('write_file', { file_path: 'src/ok.ts', content: 'export const token = process.env.NPM_TOKEN;\n' }),
        ]);
      }
      answers.push(toolResults(body));
      return message(done());
    });
    const recipe = recipeFile(`name: fix-secret
steps:
  - replace: { old_string: "a", new_string: "b" }
verify:
  - run: "test -f src/ok.ts"
    fix: { agent: { prompt: Create src/ok.ts, maxRounds: 1 } }
`);
    const { code, job } = await run(r.dir, recipe, ['--no-cache'], { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: api.url });
    expect(answers[0]!.map((a) => [a.is_error ?? false, /\(secret/.test(a.content)])).toEqual([
      [true, true],
      [false, false],
    ]);
    expect(code).toBe(0);
    expect(job.commits.map((c) => [c.group, c.files])).toEqual([
      ['rest', ['src/a.ts']],
      ['fix', ['src/ok.ts']],
    ]);
    expect(r.git('show', `${job.branch}:src/ok.ts`)).toBe('export const token = process.env.NPM_TOKEN;');
  });
});
