// SIGINT/SIGTERM: the CLI aborts the run, still writes the report, and exits 130 — never
// listr2's 127, never a hang on the step's child.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import { spawnScion } from '../support/spawn-cli.js';

const repo = reposAfterEach();
const SLEEPY = 'name: sleepy\nsteps:\n  - run: "sleep 30"\n';

describe('interrupts', () => {
  it.each([['SIGINT'], ['SIGTERM']] as const)('%s during a run step: exit 130 with the report written', async (signal) => {
    const r = await repo({ 'a.txt': 'a\n' });
    const recipe = recipeFile(SLEEPY);
    const report = join(recipe, '..', 'report.json');
    const cli = spawnScion(['run', recipe, '--repo', r.dir, '--report', report], { cwd: r.dir });
    await cli.waitFor('step 1/1');
    cli.child.kill(signal);
    const res = await cli.done;
    expect(res.code, res.stderr).toBe(130);
    expect(existsSync(report)).toBe(true);
    const rep = JSON.parse(readFileSync(report, 'utf8')) as RunReport;
    expect(rep.jobs[0]!.status).toBe('failed');
    expect(rep.jobs[0]!.errors.map((e) => e.kind)).toContain('interrupted');
    expect(r.git('for-each-ref', 'refs/heads/scion')).toBe('');
  });

  it('a second interrupt while winding down exits 130 at once', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const cli = spawnScion(['run', recipeFile(SLEEPY), '--repo', r.dir], { cwd: r.dir });
    await cli.waitFor('step 1/1');
    cli.child.kill('SIGINT');
    await cli.waitFor('interrupt again to quit at once');
    cli.child.kill('SIGINT');
    expect((await cli.done).code).toBe(130);
  });
});
