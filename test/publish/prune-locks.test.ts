// `scion branches --prune` deletes a branch the way git does (its lock, then packed-refs under
// packed-refs.lock, its reflog with it), so a git working in the same repository at the same moment
// is never raced: a branch whose lock another process holds is kept, and the next prune deletes it.
// Through the CLI, judged with native git.
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scion } from '../support/cli.js';
import { reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';

const RECIPE = recipeFile('name: new-log\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n');
const repo = reposAfterEach();

describe('scion branches --prune beside another git', () => {
  for (const lockName of ['refs/heads/scion/new-log.lock', 'packed-refs.lock']) {
    it(`keeps a merged scion branch while ${lockName} is held, changing nothing; deletes it (packed and loose, reflog too) once it is gone`, async () => {
      const r = await repo({ 'src/log.ts': "legacyLog('x');\n" });
      const run = await scion(['run', RECIPE, '--repo', r.dir], { cwd: r.dir });
      expect(run.code, run.stderr).toBe(0);
      r.git('merge', '-q', '--ff-only', 'scion/new-log');
      // Packed by a gc, and loose again (same value) with a reflog: every place a branch lives.
      r.git('pack-refs', '--all');
      r.git('update-ref', '--create-reflog', '-m', 'again', 'refs/heads/scion/new-log', r.head(), r.head());
      writeFileSync(join(r.dir, '.git/refs/heads/scion/new-log'), `${r.head()}\n`);
      expect(r.git('reflog', 'exists', 'refs/heads/scion/new-log')).toBe('');
      const lock = join(r.dir, '.git', lockName);
      writeFileSync(lock, '');
      const packed = readFileSync(join(r.dir, '.git/packed-refs'), 'utf8');

      const held = await scion(['branches', '--prune', '--repo', r.dir], { cwd: r.dir });
      expect(held.code, held.stderr).toBe(0);
      expect(held.stdout).toBe(`kept scion/new-log (another process holds ${lock})\n`);
      expect(existsSync(join(r.dir, '.git/refs/heads/scion/new-log'))).toBe(true);
      expect(r.git('rev-parse', 'scion/new-log')).toBe(r.head());
      expect(readFileSync(join(r.dir, '.git/packed-refs'), 'utf8')).toBe(packed);
      expect(existsSync(lock)).toBe(true);

      unlinkSync(lock);
      const res = await scion(['branches', '--prune', '--repo', r.dir], { cwd: r.dir });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toBe('deleted scion/new-log (holds no commit the base lacks)\n');
      expect(r.git('for-each-ref', '--format=%(refname)')).toBe('refs/heads/main');
      expect(readFileSync(join(r.dir, '.git/packed-refs'), 'utf8')).toBe(packed.replace(`${r.head()} refs/heads/scion/new-log\n`, ''));
      expect(() => r.git('reflog', 'exists', 'refs/heads/scion/new-log')).toThrow();
      expect(existsSync(join(r.dir, '.git/refs/heads/scion'))).toBe(false);
      r.git('fsck', '--strict');
    });
  }
});
