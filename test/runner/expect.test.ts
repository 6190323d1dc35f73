// `expect: {min, max}` on any step and the per-step counts in the report: a scheduled recipe
// whose code drifted away fails with kind `expectation` instead of ending silently `empty`.
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { cleanupAfterEach } from '../support/cleanups.js';

const cleanups = cleanupAfterEach();
const FILES = { 'a.ts': 'legacyLog(1);\n', 'b.ts': 'legacyLog(2);\n', 'c.ts': 'log(3);\n' };

async function run(recipe: string) {
  const r = await gitRepo(FILES);
  cleanups.push(r.cleanup);
  const res = await scion(['run', recipeFile(recipe), '--repo', r.dir, '--json'], { cwd: r.dir });
  return { r, code: res.code, job: (JSON.parse(res.stdout) as RunReport).jobs[0]!, stderr: res.stderr };
}

describe('expect', () => {
  it('a replace that matches nothing with expect min 1 fails the job with kind expectation', async () => {
    const { code, job } = await run('name: drift\nsteps:\n  - replace: { old_string: "oldLog(", new_string: "log(" }\n    expect: { min: 1 }\n');
    expect(code).toBe(1);
    expect(job.status).toBe('failed');
    expect(job.errors.map((e) => [e.step, e.kind])).toEqual([[0, 'expectation']]);
    expect(job.errors[0]!.message).toMatch(/changed 0 files; its expect wants at least 1/);
  });

  it('files found already applied count toward the range', async () => {
    const { code, job } = await run(
      'name: applied\nsteps:\n  - edit: { file: c.ts, edits: [{ old_string: "legacyLog(3)", new_string: "log(3)" }] }\n    expect: { min: 1, max: 1 }\n',
    );
    expect(code).toBe(0);
    expect(job.status).toBe('empty');
    expect(job.steps).toEqual([{ step: 0, kind: 'edit', changed: 0, alreadyApplied: 1 }]);
  });

  it('more files than max fails the job; the report counts what each step changed', async () => {
    const ok = await run(
      'name: counts\nonError: continue\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n    expect: { max: 2 }\n  - replace: ' +
        '{ old_string: "nothing here", new_string: "x" }\n',
    );
    expect(ok.code).toBe(0);
    expect(ok.job.steps).toEqual([
      { step: 0, kind: 'replace', changed: 2, alreadyApplied: 0 },
      { step: 1, kind: 'replace', changed: 0, alreadyApplied: 0 },
    ]);
    const over = await run('name: over\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n    expect: { max: 1 }\n');
    expect(over.code).toBe(1);
    expect(over.job.errors.map((e) => e.kind)).toEqual(['expectation']);
    expect(over.job.files).toEqual([]);
    expect(over.r.git('branch', '--list', 'scion/*')).toBe('');
  });

  it('validate refuses a range whose min is above its max, and an unknown key in expect', async () => {
    const file = recipeFile('name: bad\nsteps:\n  - replace: { old_string: "a", new_string: "b" }\n    expect: { min: 3, max: 1, mni: 2 }\n');
    const res = await scion(['validate', file], { cwd: process.cwd() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('unknown key "mni"');
  });
});
