// SPEC §7 "A write never removes what it does not name": every refused write leaves the base's
// folders, files, symlinks and submodules in the branch exactly as they were (judged by native git).
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';

const repo = reposAfterEach();

async function baseRepo() {
  const r = await repo({
    'src/f1.txt': 'one\n',
    'src/f2.txt': 'two\n',
    'src/deep/f3.txt': 'three\n',
    a: 'a file\n',
    link: { content: 'src/f1.txt', mode: 'symlink' },
    'keep.md': 'keep\n',
  });
  // A submodule gitlink, as `git submodule add` leaves it in the tree.
  r.git('update-index', '--add', '--cacheinfo', `160000,${r.head()},sub`);
  r.git('commit', '-qm', 'submodule');
  return r;
}

const refusedWrites = `
  - write: { file: src, content: "gone?\\n" }
  - write: { file: a/b, content: "under a file\\n" }
  - write: { file: sub, content: "over a submodule\\n" }
  - write: { file: sub/x, content: "inside a submodule\\n" }
  - write: { file: link, content: "over a symlink\\n" }
  - write: { file: new/inner.md, content: "made by this job\\n" }
  - write: { file: new, content: "over a folder this job made\\n" }
  - edit: { file: src/deep, edits: [{ old_string: "", new_string: "x" }] }
  - write: { file: keep.md, content: "changed\\n" }
`;

describe('a write never removes what it does not name', () => {
  for (const where of ['objects', 'worktree'] as const) {
    it(`refuses writes over folders, under files, over submodules and symlinks (${where})`, async () => {
      const r = await baseRepo();
      const before = r.git('ls-tree', '-r', 'HEAD');
      const recipe = recipeFile(`name: nothing-lost
onError: continue
deny: ["**/*.txt"]
steps:${refusedWrites}${where === 'worktree' ? '  - run: "true"\n' : ''}`);
      const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
      expect(res.stderr).not.toContain('internal error');
      expect(res.code).toBe(1);
      const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
      expect(job.errors.map((e) => [e.step, e.file, e.kind])).toEqual([
        [0, 'src', 'file-exists'],
        [1, 'a/b', 'file-exists'],
        [2, 'sub', 'unsupported'],
        [3, 'sub/x', 'unsupported'],
        [4, 'link', 'unsupported'],
        [6, 'new', 'file-exists'],
        [7, 'src/deep', 'file-exists'],
      ]);
      // What was committed is exactly the two writes that named a free path; everything else stands.
      expect(r.git('diff', '--name-status', 'HEAD', 'scion/nothing-lost')).toBe('M\tkeep.md\nA\tnew/inner.md');
      const after = r.git('ls-tree', '-r', 'scion/nothing-lost').split('\n');
      for (const line of before.split('\n')) if (!line.endsWith('\tkeep.md')) expect(after).toContain(line);
      r.git('fsck', '--strict');
      expect(r.git('worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(1);
    });
  }

  it('deny protects every path under a folder: writing the folder itself is refused', async () => {
    const r = await baseRepo();
    const recipe = recipeFile(`name: deny-dir
deny: ["**/*.txt"]
steps:
  - write: { file: src/deep, content: "x\\n" }
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.code).toBe(1);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.status).toBe('failed');
    expect(['file-exists', 'denied']).toContain(job.errors[0]!.kind);
    expect(job.head).toBeNull();
    expect(r.git('for-each-ref', 'refs/heads/scion')).toBe('');
    expect(r.git('ls-tree', '-r', '--name-only', 'HEAD', 'src')).toBe('src/deep/f3.txt\nsrc/f1.txt\nsrc/f2.txt');
  });
});
