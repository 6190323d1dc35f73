// No path git would refuse, through every writer: recipe steps, files a `run` step
// creates, and the agent's write_file. Judged by native git (fsck --strict, branches, ls-tree).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { loadRecipe, formatProblem } from '../../src/recipe/index.js';
import { runRecipes } from '../../src/runner/run-recipes.js';
import { KEY } from '../agent/mem-files.js';
import { done, scripted, tool, toolResults } from '../agent/script.js';
import { reposAfterEach } from '../support/cleanups.js';
import { scion } from '../support/cli.js';
import type { TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { fakeApisAfterEach } from '../support/servers.js';

const repo = reposAfterEach();
const fakeApi = fakeApisAfterEach();

/** Paths that alias .git somewhere (Windows, macOS, any case) or that git's fsck refuses. */
const BAD = [
  '.git./hooks/post-checkout',
  'git~1/hooks/post-checkout',
  '.git::$INDEX_ALLOCATION/hooks/x',
  '.g\u200dit/config',
  '.GIT/config',
  'sub/.git /hooks/x',
  'src/../.git/config',
  './src/x.ts',
];

function branches(r: TestRepo): string[] {
  const out = r.git('for-each-ref', '--format=%(refname)', 'refs/heads/');
  return out === '' ? [] : out.split('\n');
}

function fsckStrict(r: TestRepo): void {
  // Throws (failing the test) on any fsck error or warning promoted by --strict.
  r.git('fsck', '--strict', '--no-progress');
}

async function runJson(r: TestRepo, recipe: string): Promise<{ code: number; report: RunReport }> {
  const res = await scion(['run', recipeFile(recipe), '--repo', r.dir, '--json'], { cwd: r.dir });
  if (!res.stdout.startsWith('{')) throw new Error(`scion exited ${res.code}: ${res.stderr}`);
  return { code: res.code, report: JSON.parse(res.stdout) as RunReport };
}

describe('recipe steps', () => {
  it('refuses write, edit and notebook steps to .git aliases with kind outside; no branch is created', async () => {
    const r = await repo({ 'src/a.ts': 'a\n' });
    const steps = BAD.map((p) => `  - write: { file: ${JSON.stringify(p)}, content: "#!/bin/sh\\necho owned\\n" }`);
    steps.push(`  - edit: { file: ".git./config", edits: [{ old_string: "", new_string: "x" }] }`);
    steps.push(`  - notebook: { file: "git~1/nb.ipynb", cell: cell-0, mode: insert, type: code, source: "x" }`);
    const { code, report } = await runJson(r, `name: bad-paths\nonError: continue\nsteps:\n${steps.join('\n')}\n`);
    expect(code).toBe(1);
    const job = report.jobs[0]!;
    expect(job.status).toBe('failed');
    expect(job.errors.map((e) => e.kind)).toEqual(steps.map(() => 'outside'));
    expect(job.errors.map((e) => e.step)).toEqual(steps.map((_, i) => i));
    expect(job.head).toBeNull();
    expect(branches(r)).toEqual(['refs/heads/main']);
    fsckStrict(r);
  });

  it('edits paths with a tab, a backslash, a colon or a trailing space like any other', async () => {
    const names = ['dir/tab\there.txt', 'back\\slash.txt', 'dir/c:colon.txt', 'space .txt', '.git-blame-ignore-revs'];
    const r = await repo(Object.fromEntries(names.map((n) => [n, 'legacyLog(1);\n'])));
    const { code, report } = await runJson(r, `name: odd-names\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n`);
    expect(report.jobs[0]!.errors).toEqual([]);
    expect(code).toBe(0);
    expect(report.jobs[0]!.files.map((f) => f.path).sort()).toEqual([...names].sort());
    for (const n of names) expect(r.git('cat-file', 'blob', `scion/odd-names:${n}`)).toBe('log(1);');
    fsckStrict(r);
  });
});

describe('files a run step creates', () => {
  it('are refused with kind outside and removed when git would refuse their path; the rest is committed', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const script = [
      "mkdir -p '.git./hooks' 'git~1' \"$(printf '.g\\342\\200\\215it')\"",
      "printf x > '.git./hooks/post-checkout'",
      "printf x > 'git~1/config'",
      'printf x > "$(printf \'.g\\342\\200\\215it\')/config"',
      'printf ok > ok.txt',
    ].join(' && ');
    const { code, report } = await runJson(r, `name: run-paths\nonError: continue\nsteps:\n  - run: ${JSON.stringify(script)}\n`);
    expect(code).toBe(1);
    const job = report.jobs[0]!;
    expect(job.errors.map((e) => [e.file, e.kind]).sort()).toEqual(
      [
        ['.git./hooks/post-checkout', 'outside'],
        ['git~1/config', 'outside'],
        ['.g\u200dit/config', 'outside'],
      ].sort(),
    );
    expect(r.git('ls-tree', '-r', '--name-only', 'scion/run-paths').split('\n').sort()).toEqual(['a.txt', 'ok.txt']);
    fsckStrict(r);
  });
});

describe("the agent's write_file", () => {
  it('is refused for .git aliases (outside), told to the model, and nothing of it is committed', async () => {
    const answers: { content: string; is_error?: boolean }[][] = [];
    const api = await fakeApi(
      scripted({
        'src/a.js': [
          [
            tool('write_file', { file_path: '.git./hooks/post-checkout', content: '#!/bin/sh\necho owned\n' }),
            tool('write_file', { file_path: 'src/git~1/config', content: '[core]\n' }),
            tool('write_file', { file_path: 'src/.g\u200dit/hooks/x', content: 'x\n' }),
            tool('write_file', { file_path: 'src/.GIT/config', content: 'x\n' }),
          ],
          (body) => {
            answers.push(toolResults(body));
            return [tool('edit_file', { file_path: 'src/a.js', old_string: 'foo', new_string: 'bar' })];
          },
          done(),
        ],
      }),
    );
    const r = await repo({ 'src/a.js': 'export const foo = 1;\n' });
    const file = recipeFile('name: agent-paths\nsteps:\n  - agent: { prompt: "Rename foo to bar", maxTurns: 4 }\n');
    const loaded = await loadRecipe(file);
    if (!loaded.ok) throw new Error(loaded.problems.map(formatProblem).join('\n'));
    const report = await runRecipes(
      [{ file, recipe: loaded.recipe }],
      { repo: r.dir, concurrency: 1 },
      { env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: api.url } },
    );
    const job = report.jobs[0]!;
    expect(job.errors).toEqual([]);
    expect(answers[0]!.map((a) => a.is_error)).toEqual([true, true, true, true]);
    for (const a of answers[0]!) expect(a.content).toMatch(/not a path git accepts/);
    expect(r.git('ls-tree', '-r', '--name-only', 'scion/agent-paths')).toBe('src/a.js');
    expect(r.git('show', 'scion/agent-paths:src/a.js')).toBe('export const bar = 1;');
    fsckStrict(r);
    // Nothing landed in the user's checkout or its .git either.
    expect(() => readFileSync(`${r.dir}/.git./hooks/post-checkout`)).toThrow();
  });
});
