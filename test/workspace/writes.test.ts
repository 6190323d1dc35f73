// A write never removes what it does not name: every refused write leaves the base's
// folders, files, symlinks and submodules in the branch exactly as they were (judged by native git).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { KEY } from '../agent/mem-files.js';
import { done, scripted, tool, toolResults } from '../agent/script.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import { fakeApisAfterEach } from '../support/servers.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();
const fakeApi = fakeApisAfterEach();

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

  it('a file outside the selection standing where a selected path needs a folder is not replaced', async () => {
    const r = await baseRepo();
    const recipe = recipeFile(`name: under-file
files: { include: ["a/b/**"] }
steps:
  - write: { file: a/b/c.md, content: "x\\n" }
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.stderr).not.toContain('internal error');
    expect(res.code).toBe(1);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.errors.map((e) => [e.file, e.kind])).toEqual([['a/b/c.md', 'file-exists']]);
    expect(r.git('for-each-ref', 'refs/heads/scion')).toBe('');
  });

  it('files git does not track (ignored output, an untracked symlink) are not replaced either; a kept worktree keeps them', async () => {
    const r = await repo({ '.gitignore': 'build/\nout\next\n', 'a.txt': 'a\n' });
    const outside = mkdtempSync(join(tmpdir(), 'scion-outside-'));
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    const recipe = recipeFile(`name: untracked
onError: continue
steps:
  - run: "mkdir -p build && echo precious > build/out.txt && echo mine > out && ln -s ${outside} ext"
  - write: { file: build, content: "x\\n" }
  - write: { file: out/inner.txt, content: "x\\n" }
  - write: { file: ext/escape.txt, content: "x\\n" }
  - write: { file: build/new.txt, content: "made\\n" }
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--keep-worktrees', '--no-cache', '--json'], { cwd: r.dir });
    expect(res.stderr).not.toContain('internal error');
    expect(res.code).toBe(1);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.errors.map((e) => [e.step, e.file, e.kind])).toEqual([
      [1, 'build', 'file-exists'],
      [2, 'out/inner.txt', 'file-exists'],
      [3, 'ext/escape.txt', 'outside'],
    ]);
    const wt = job.worktree!;
    expect(readFileSync(join(wt, 'build/out.txt'), 'utf8')).toBe('precious\n');
    expect(readFileSync(join(wt, 'out'), 'utf8')).toBe('mine\n');
    expect(readdirSync(outside)).toEqual([]);
    // A write into the ignored folder, naming a free path, is a write like any other.
    expect(readFileSync(join(wt, 'build/new.txt'), 'utf8')).toBe('made\n');
    r.git('worktree', 'remove', '--force', wt);
  });

  it("the agent's write_file is refused over a folder, under a file and over a submodule; the model is told, nothing is removed", async () => {
    const r = await baseRepo();
    const before = r.git('ls-tree', '-r', 'HEAD');
    const answers: { content: string; is_error?: boolean }[][] = [];
    const api = await fakeApi(
      scripted({
        job: [
          [
            tool('write_file', { file_path: 'src', content: 'gone?\n' }),
            tool('write_file', { file_path: 'a/b', content: 'under a file\n' }),
            tool('write_file', { file_path: 'sub', content: 'over a submodule\n' }),
            tool('write_file', { file_path: 'link', content: 'over a symlink\n' }),
          ],
          (body) => {
            answers.push(toolResults(body));
            return done('Could not.');
          },
        ],
      }),
    );
    const recipe = recipeFile('name: agent-writes\nsteps:\n  - agent:\n      prompt: Replace things\n      per: job\n');
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir, env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: api.url } });
    expect(res.stderr).not.toContain('internal error');
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.status).toBe('empty');
    expect(answers[0]!.map((a) => [a.is_error, /\((file-exists|unsupported|outside)/.exec(a.content)?.[1]])).toEqual([
      [true, 'file-exists'],
      [true, 'file-exists'],
      [true, 'unsupported'],
      [true, 'unsupported'],
    ]);
    expect(r.git('for-each-ref', 'refs/heads/scion')).toBe('');
    expect(r.git('ls-tree', '-r', 'HEAD')).toBe(before);
  });
});
