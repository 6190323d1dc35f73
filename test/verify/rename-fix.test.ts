// Verify, then fix, end to end: a `replace` renames an API, the REAL tsc finds the imports the replace could
// not, the fake model (real SDK, loopback) fixes them, and the job ends `changed` with a `fix` commit.
// A rerun over the unchanged base runs no command (a counter file OUTSIDE the repository counts every
// run) and sends no model request. maxRounds exhausted: `failed` with the last diagnostics.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem, loadRecipe } from '../../src/recipe/index.js';
import { runRecipes } from '../../src/runner/run-recipes.js';
import type { RunEvent } from '../../src/runner/types.js';
import { KEY } from '../agent/mem-files.js';
import { done, firstMessageText, message, tool, toolResults, turnOf } from '../agent/script.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import type { FakeApi } from '../agent/fake-api.js';
import { fakeApisAfterEach } from '../support/servers.js';

const TSC = join(new URL('../..', import.meta.url).pathname, 'node_modules', '.bin', 'tsc');
const makeRepo = reposAfterEach();
const cleanups = cleanupAfterEach();
const fakeApi = fakeApisAfterEach();

const FILES = {
  'tsconfig.json': JSON.stringify(
    { compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ES2022', moduleResolution: 'bundler' }, include: ['src'] },
    null,
    2,
  ),
  'src/api.ts': 'export function fetchUser(id: number): string {\n  return `user-${id}`;\n}\n',
  'src/a.ts': "import { fetchUser } from './api.js';\n\nexport const a = fetchUser(1);\n",
  'src/b.ts': "import { fetchUser as get } from './api.js';\n\nexport const b = get(2);\n",
};

function recipe(counter: string, maxRounds: number): string {
  return `name: rename-api
description: Rename fetchUser to loadUser
files:
  include: ["src/**"]
steps:
  - replace:
      old_string: "fetchUser("
      new_string: "loadUser("
      replace_all: true
  - run: "echo run >> '${counter}'; printf 'export const version = 2;\\\\n' > src/version.ts"
verify:
  - run: "echo verify >> '${counter}'; '${TSC}' --noEmit -p . --pretty false"
    fix:
      agent:
        prompt: Fix what the rename of fetchUser to loadUser broke
        maxRounds: ${maxRounds}
        maxTurns: 4
`;
}

async function setup(maxRounds: number, api: FakeApi) {
  const outside = mkdtempSync(join(tmpdir(), 'scion-counter-'));
  cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
  const counter = join(outside, 'runs');
  const file = recipeFile(recipe(counter, maxRounds));
  const loaded = await loadRecipe(file);
  if (!loaded.ok) throw new Error(loaded.problems.map(formatProblem).join('\n'));
  const repo = await makeRepo(FILES);
  const runs = () => (existsSync(counter) ? readFileSync(counter, 'utf8').trim().split('\n') : []);
  const logs: string[] = [];
  const ctx = () => ({
    env: { PATH: process.env['PATH'], ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: api.url },
    onEvent: (e: RunEvent) => {
      if (e.type === 'log') logs.push(e.message);
    },
  });
  const run = () => runRecipes([{ file, recipe: loaded.recipe }], { repo: repo.dir, concurrency: 1 }, ctx());
  return { repo, runs, run, logs };
}

describe('verify, then fix', () => {
  it('fixes the imports tsc reports, commits them as group fix, and a rerun runs nothing and asks nothing', async () => {
    const firsts: string[] = [];
    const api = await fakeApi((body) => {
      if (turnOf(body) === 0) {
        firsts.push(firstMessageText(body));
        // The lines were shown, so both files count as read: edit at once.
        return message([
          tool('edit_file', { file_path: 'src/a.ts', old_string: 'import { fetchUser }', new_string: 'import { loadUser }' }),
          tool('edit_file', { file_path: 'src/b.ts', old_string: '{ fetchUser as get }', new_string: '{ loadUser as get }' }),
        ]);
      }
      expect(toolResults(body).map((r) => (r.is_error ? r.content : false))).toEqual([false, false]);
      return message(done('Updated the two imports.'));
    });
    const s = await setup(2, api);
    const base = s.repo.head();

    const report = await s.run();
    const job = report.jobs[0]!;
    expect(job.errors).toEqual([]);
    expect(job.status).toBe('changed');
    expect(job.diagnostics ?? []).toEqual([]);
    expect(job.usage.inputTokens).toBeGreaterThan(0);
    // Commands: the run step, verify (fails), verify (passes).
    expect(s.runs()).toEqual(['run', 'verify', 'verify']);
    expect(api.messages()).toHaveLength(2);
    // The first request carried the command, its status and each diagnostic with its lines.
    expect(firsts).toHaveLength(1);
    expect(firsts[0]).toContain(`exited with status 2`);
    expect(firsts[0]).toContain(`src/a.ts:1:10: error TS2305: Module '"./api.js"' has no exported member 'fetchUser'.`);
    expect(firsts[0]).toContain("src/a.ts:3:18: error TS2304: Cannot find name 'loadUser'.");
    expect(firsts[0]).toContain('src/b.ts:1:10: error TS2305');
    expect(firsts[0]).toContain("     1\timport { fetchUser } from './api.js';");

    // Two commits: the recipe's, then the fix's, judged by native git.
    const g = s.repo.git;
    const log = g('log', '--format=%s%x09%(trailers:key=Scion-Group,valueonly)', `${base}..scion/rename-api`).split('\n').filter(Boolean);
    expect(log).toHaveLength(2);
    expect(log[0]).toMatch(/\tfix$/);
    expect(log[1]).toMatch(/\trest$/);
    expect(g('diff', '--name-only', 'scion/rename-api~1', 'scion/rename-api')).toBe('src/a.ts\nsrc/b.ts');
    expect(g('show', 'scion/rename-api:src/a.ts')).toBe("import { loadUser } from './api.js';\n\nexport const a = loadUser(1);");
    expect(g('show', 'scion/rename-api~1:src/a.ts')).toBe("import { fetchUser } from './api.js';\n\nexport const a = loadUser(1);");
    expect(g('show', 'scion/rename-api:src/version.ts')).toBe('export const version = 2;');
    expect(job.commits.map((c) => c.group)).toEqual(['rest', 'fix']);
    g('fsck', '--strict');

    // The nightly rerun: same recipe, same base. No command, no request, the branch as it was.
    const head = g('rev-parse', 'scion/rename-api');
    const requests = api.requests.length;
    const again = await s.run();
    expect(s.runs()).toEqual(['run', 'verify', 'verify']);
    expect(api.requests.length).toBe(requests);
    expect(again.jobs[0]!.status).toBe('unchanged');
    expect(again.jobs[0]!.usage).toMatchObject({ inputTokens: 0, outputTokens: 0, costUsd: 0 });
    expect(g('rev-parse', 'scion/rename-api')).toBe(head);
  });

  it('fails with kind command-failed and the last diagnostics when maxRounds run out', async () => {
    const api = await fakeApi(() => message(done('I cannot fix this.')));
    const s = await setup(2, api);
    const report = await s.run();
    const job = report.jobs[0]!;
    expect(job.status).toBe('failed');
    expect(job.errors.map((e) => e.kind)).toEqual(['command-failed']);
    expect(job.errors[0]!.message).toContain('after 2 fix rounds');
    expect(job.diagnostics!.map((d) => [d.file, d.line, d.col])).toEqual([
      ['src/a.ts', 1, 10],
      ['src/a.ts', 3, 18],
      ['src/b.ts', 1, 10],
    ]);
    expect(job.diagnostics![0]!).toMatchObject({
      severity: 'error',
      source: 'tsc',
      code: 'TS2305',
      message: `Module '"./api.js"' has no exported member 'fetchUser'.`,
    });
  });
});
