// The library as a program uses it: a recipe written inline with defineRecipe runs (and type-checks:
// `npm run typecheck` compiles this file), and the publishing names are exported.
import { describe, expect, it } from 'vitest';
import * as scion from '../../src/index.js';
import { defineRecipe, parseRecipe, runRecipe, runRecipes, type StepInput, type TransformFn } from '../../src/index.js';
import { reposAfterEach } from '../support/cleanups.js';

const repo = reposAfterEach();

describe('the library API', () => {
  it('runs runRecipe({ recipe: defineRecipe({...}) }) with a transform step, as a module recipe would', async () => {
    const r = await repo({ 'a.txt': 'v1\n' });
    const upper: TransformFn = ({ content }) => content.toUpperCase();
    const steps: StepInput[] = [{ replace: { old_string: 'v1', new_string: 'v2' } }, { transform: upper }];
    const report = await runRecipe({ recipe: defineRecipe({ name: 'inline', steps }) }, { repo: r.dir }, { env: {} });
    expect(report.jobs.map((j) => [j.branch, j.status])).toEqual([['scion/inline', 'changed']]);
    expect(r.git('show', 'scion/inline:a.txt')).toBe('V2');
  });

  it('refuses an invalid inline recipe with every problem, and two recipes of one name', async () => {
    const r = await repo({ 'a.txt': 'v1\n' });
    const bad = parseRecipe({ name: 'Bad Name', steps: [] });
    expect(bad.ok).toBe(false);
    expect(bad.ok ? [] : bad.problems.map((p) => p.path)).toEqual(['name', 'steps']);
    const step: StepInput = { replace: { old_string: 'v1', new_string: 'v2' } };
    await expect(
      runRecipes([{ recipe: { name: 'x', steps: [step] } }, { recipe: { name: 'x', steps: [step] } }], { repo: r.dir }, { env: {} }),
    ).rejects.toThrow('are both named "x"');
    expect(r.git('branch', '--list', 'scion/*')).toBe('');
  });

  // publishRun and parseRecipe are run through the package entry (test/publish/publish-run.test.ts and
  // the test above); these names are the rest a program imports for publishing and reports.
  it('exports publishing, the report helpers and the recipe helpers', () => {
    for (const name of [
      'publishPullRequests',
      'pushReport',
      'pullRequestStatus',
      'pruneBranches',
      'GitHubHost',
      'GitLabHost',
      'mergeReports',
      'parseRunReport',
      'formatProblem',
    ]) {
      expect(typeof (scion as Record<string, unknown>)[name]).toBe('function');
    }
  });
});
