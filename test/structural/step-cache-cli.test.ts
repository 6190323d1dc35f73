// A structural step before a `run` step: the run step's cache key holds what the structural step
// wrote, so the nightly rerun replays the command's recorded changes instead of running it, and a
// rule whose output changes makes the command run again.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { showBytes, structuralCli } from './cli-support.js';

const { repo, recipeDir, cleanups } = structuralCli();

describe('astgrep then a cached run step', () => {
  it('a rerun replays the command; another fix output runs it again', async () => {
    const r = await repo({ 'src/a.ts': 'console.log(1);\n' });
    const counter = mkdtempSync(join(tmpdir(), 'scion-structural-count-'));
    cleanups.push(() => rmSync(counter, { recursive: true, force: true }));
    const runs = join(counter, 'runs');
    appendFileSync(runs, '');
    const recipe = (callee: string) =>
      [
        'name: c2l',
        'steps:',
        `  - astgrep: { rule: { pattern: "console.log($$$A)" }, fix: "${callee}($$$A)" }`,
        `  - run: "echo ran >> ${runs} && wc -l < src/a.ts > src/lines.txt"`,
        '',
      ].join('\n');
    const go = async (text: string) => {
      const res = await scion(['run', recipeDir(text), '--repo', r.dir, '--json'], { cwd: r.dir });
      expect(res.code, res.stderr).toBe(0);
      return (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    };
    const first = await go(recipe('logger.info'));
    expect(first.status).toBe('changed');
    expect(showBytes(r, 'scion/c2l', 'src/lines.txt').toString().trim()).toBe('1');
    // Same base, same rule: the command is not run again and the branch is what it was.
    const second = await go(recipe('logger.info'));
    expect(second.status).toBe('unchanged');
    expect(readFileSync(runs, 'utf8')).toBe('ran\n');
    // Another fix: the command's input changed, so it runs.
    const third = await go(recipe('log.info'));
    expect(third.status).toBe('changed');
    expect(readFileSync(runs, 'utf8')).toBe('ran\nran\n');
    expect(showBytes(r, 'scion/c2l', 'src/a.ts').toString()).toBe('log.info(1);\n');
  });
});
