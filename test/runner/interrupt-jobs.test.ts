// SIGINT in the middle of a run of many object-level jobs (the real CLI as its own process): no job
// starts and no branch is written after the signal; the jobs it caught report `interrupted`, the
// report is written and the exit status is 130. The signal is sent at a fixed point of the run (by
// the transform of one job, which first notes the time), so what "after" means does not depend on
// how fast this machine is: every branch native git shows afterwards must have existed when the
// signal was sent.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { reposAfterEach, cleanupAfterEach } from '../support/cleanups.js';
import { spawnScion } from '../support/spawn-cli.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();
const JOBS = 200;
const TRIGGER = 40;
const name = (i: number) => `d${String(i).padStart(3, '0')}`;

/**
 * A module recipe: one job per folder, each a transform of its one file. The job of folder TRIGGER
 * sends SIGINT to the scion process (whose pid the test writes to `pidFile`), and lists with native
 * git the branches that exist right after it was sent.
 */
function recipe(dir: string, repoDir: string): string {
  const file = join(dir, 'recipe.mjs');
  writeFileSync(
    file,
    `import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
const pidFile = ${JSON.stringify(join(dir, 'pid'))};
export default {
  name: 'many',
  jobs: [{ each: 'd*' }],
  steps: [{
    transform: ({ path, content }) => {
      if (path === ${JSON.stringify(`${name(TRIGGER)}/f.ts`)}) {
        while (!existsSync(pidFile)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        // One shell sends the signal and lists the branches right after it. Transforms run in a worker
        // thread that scion ends on the signal; the shell is its own process and finishes its listing.
        const script = 'kill -INT "$1" && git for-each-ref --format="%(refname)" refs/heads/scion > "$2"';
        execFileSync('sh', ['-c', script, 'sh', readFileSync(pidFile, 'utf8'), ${JSON.stringify(join(dir, 'at-signal'))}], { cwd: ${JSON.stringify(repoDir)} });
      }
      return content.replace('const a', 'let a');
    },
  }],
};
`,
  );
  return file;
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .sort();
}

describe('SIGINT during a run of many object-level jobs', () => {
  it('writes no branch after the signal: the branches are those that existed when it was sent; exit 130, report written', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < JOBS; i++) files[`${name(i)}/f.ts`] = `const a = ${i};\n`;
    const r = await repo(files);
    const dir = mkdtempSync(join(tmpdir(), 'scion-sigint-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const report = join(dir, 'report.json');

    const cli = spawnScion(['run', recipe(dir, r.dir), '--repo', r.dir, '--report', report, '--concurrency', '4'], { cwd: r.dir });
    writeFileSync(join(dir, 'pid'), String(cli.child.pid));
    const res = await cli.done;
    expect(res.code, res.stderr).toBe(130);
    expect(res.stderr).not.toContain('internal error');

    // What native git shows now is exactly what existed when the signal was sent.
    const atSignal = lines(readFileSync(join(dir, 'at-signal'), 'utf8'));
    const after = lines(r.git('for-each-ref', '--format=%(refname)', 'refs/heads/scion'));
    expect(after).toEqual(atSignal);
    // The run was stopped in its middle: some jobs had ended, most had not started.
    expect(after.length).toBeGreaterThan(0);
    expect(after.length).toBeLessThan(TRIGGER + 4);

    // The report lists every job: the changed ones are those branches, every other one is interrupted.
    const rep = JSON.parse(readFileSync(report, 'utf8')) as RunReport;
    expect(rep.jobs).toHaveLength(JOBS);
    const changed = rep.jobs.filter((j) => j.status === 'changed');
    expect(changed.map((j) => `refs/heads/${j.branch}`).sort()).toEqual(after);
    for (const j of rep.jobs.filter((x) => x.status !== 'changed')) {
      expect([j.status, j.head, j.errors.map((e) => e.kind)]).toEqual(['failed', null, ['interrupted']]);
    }
    for (const j of changed) expect(r.git('rev-parse', `refs/heads/${j.branch}`)).toBe(j.head);

    // Nothing left behind: no worktree, no job lock, no ref lock; the repository is sound.
    expect(r.git('worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(1);
    const locks = join(r.dir, '.git', 'scion', 'locks');
    expect(existsSync(locks) ? readdirSync(locks) : []).toEqual([]);
    expect(readdirSync(join(r.dir, '.git', 'refs', 'heads'), { recursive: true }).filter((f) => String(f).endsWith('.lock'))).toEqual([]);
    expect(r.git('status', '--porcelain')).toBe('');
    r.git('fsck', '--strict');
  }, 120_000);
});
