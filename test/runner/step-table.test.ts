// The step table (src/runner/steps/index.ts): one entry per kind, the default time limits, and
// each kind's findings returned as a value (errors and skips), not written into the job's lists.
import { describe, expect, it } from 'vitest';
import { closeRepo, treeOfCommit, listTree, openRepo } from '../../src/git/index.js';
import { expandJobs, recipeSchema, STEP_KINDS, stepKind, type RecipeInput } from '../../src/recipe/index.js';
import type { StepContext } from '../../src/runner/step-context.js';
import { needsDisk, runStep, STEPS, stepLabel, stepLimitMs } from '../../src/runner/steps/index.js';
import { ObjectWorkspace } from '../../src/workspace/objects.js';
import { reposAfterEach } from '../support/cleanups.js';

const repo = reposAfterEach();

function recipe(steps: RecipeInput['steps'], more: Partial<RecipeInput> = {}) {
  return recipeSchema.parse({ name: 't', steps, ...more });
}

describe('the step table', () => {
  it('has one entry per kind, with its label, disk need and default limit', () => {
    expect(Object.keys(STEPS).sort()).toEqual([...STEP_KINDS].sort());
    const r = recipe([
      { edit: { file: 'a.txt', edits: [{ old_string: 'a', new_string: 'b' }] } },
      { replace: { old_string: 'x'.repeat(60), new_string: 'y' } },
      { write: { file: 'w.txt', content: 'w\n' } },
      { notebook: { file: 'n.ipynb', cell: 'c', mode: 'delete' } },
      { run: { command: 'make\nmore' } },
      { agent: { prompt: 'Fix it' } },
      { astgrep: { rule: { pattern: 'console.log($$$A)' }, fix: 'log($$$A)' } },
      { jscodeshift: { transform: './t.js' } },
      { transform: ({ content }: { content: string }) => content },
      { run: 'make', timeout: 5 },
      { astgrep: { ruleFile: 'rules/no-console.yml' } },
    ]);
    expect(r.steps.map(stepKind)).toEqual([...STEP_KINDS, 'run', 'astgrep']);
    expect(r.steps.map(stepLabel)).toEqual([
      'edit a.txt',
      `replace "${'x'.repeat(47)}…"`,
      'write w.txt',
      'notebook n.ipynb',
      'run make',
      'agent "Fix it"',
      'astgrep "console.log($$$A)"',
      'jscodeshift ./t.js',
      'transform',
      'run make',
      'astgrep rules/no-console.yml',
    ]);
    expect(r.steps.map(needsDisk)).toEqual([false, false, false, false, true, false, false, false, false, true, false]);
    // 600 s for run, agent, transform and the structural steps; none otherwise; the step's own timeout wins.
    expect(r.steps.map(stepLimitMs)).toEqual([null, null, null, null, 600_000, 600_000, 600_000, 600_000, 600_000, 5_000, 600_000]);
  });

  it("returns each step's errors and skips as its outcome", async () => {
    const t = await repo({ 'a.txt': 'new\n', 'bin.dat': new Uint8Array([0, 1, 2, 0]), 'secret/k.txt': 'k\n' });
    const g = await openRepo(t.dir);
    try {
      const entries = new Map((await listTree(g, await treeOfCommit(g, t.head()))).map((e) => [e.path, e]));
      const r = recipe(
        [
          { edit: { file: 'a.txt', edits: [{ old_string: 'old', new_string: 'new' }] } },
          { edit: { file: 'missing.txt', edits: [{ old_string: 'a', new_string: 'b' }] } },
          { write: { file: 'secret/k.txt', content: 'x\n' } },
          { replace: { old_string: 'zzz', new_string: 'y' } },
          {
            transform: ({ path }: { path: string }) => {
              if (path === 'a.txt') throw new Error('boom');
              return undefined;
            },
          },
        ],
        { deny: ['secret/**'] },
      );
      const job = expandJobs(r, [])[0]!;
      const ws = new ObjectWorkspace(g, entries);
      const ctx: StepContext = {
        recipe: r,
        job,
        ws,
        run: { env: {} },
        dryRun: false,
        selected: () => true,
        isDenied: (p) => p.startsWith('secret/'),
        schemaFor: () => undefined,
        baseState: async () => null,
        gitDir: g.commonDir,
        noCache: true,
        signal: new AbortController().signal,
        deadline: null,
        log: () => undefined,
        addUsage: () => undefined,
      };
      const outcomes = [];
      for (const step of r.steps) outcomes.push(await runStep(ctx, step));
      const shape = outcomes.map((o) => ({ errors: o.errors.map((e) => [e.file, e.failure.kind]), skipped: o.skipped.map((s) => [s.file, s.reason]) }));
      expect(shape).toEqual([
        { errors: [], skipped: [['a.txt', 'already-applied']] },
        { errors: [['missing.txt', 'file-missing']], skipped: [] },
        { errors: [['secret/k.txt', 'denied']], skipped: [] },
        { errors: [], skipped: [['bin.dat', 'binary']] },
        { errors: [['a.txt', 'command-failed']], skipped: [] },
      ]);
      expect(ws.changes().size).toBe(0);
    } finally {
      await closeRepo(g);
    }
  });
});
