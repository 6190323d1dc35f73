// Commits: scion runs no git hooks (it writes objects and refs itself, as plumbing does),
// whatever hooks the repository installs, in its worktrees too.
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();
const HOOKS = ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'reference-transaction', 'post-checkout', 'post-index-change', 'pre-push'];

describe('git hooks', () => {
  it('none runs during a run (worktree job, kept worktree), though native git runs them', async () => {
    const r = await repo({ 'src/a.ts': 'const a = 1;\n' });
    const marks = mkdtempSync(join(tmpdir(), 'scion-hooks-'));
    cleanups.push(() => rmSync(marks, { recursive: true, force: true }));
    for (const hook of HOOKS) {
      const file = join(r.dir, '.git', 'hooks', hook);
      writeFileSync(file, `#!/bin/sh\ntouch '${marks}/${hook}'\ncat >/dev/null 2>&1 || true\n`);
      chmodSync(file, 0o755);
    }
    const recipe = recipeFile('name: hooked\nsteps:\n  - replace: { old_string: "const a", new_string: "let a" }\n  - run: "true"\n');
    const res = await scion(['run', recipe, '--repo', r.dir, '--keep-worktrees', '--json'], { cwd: r.dir });
    expect(res.code, res.stderr).toBe(0);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.status).toBe('changed');
    expect(HOOKS.filter((h) => existsSync(join(marks, h)))).toEqual([]);
    // The hooks are live: a native commit runs them.
    r.git('commit', '--allow-empty', '-qm', 'native');
    expect(existsSync(join(marks, 'pre-commit'))).toBe(true);
    r.git('worktree', 'remove', '--force', job.worktree!);
  });
});
