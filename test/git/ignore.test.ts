import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openRepo, worktreeChanges } from '../../src/git/index.js';
import { gitRepo, type TestRepo } from '../support/git-repo.js';

const repos: TestRepo[] = [];
afterEach(async () => {
  for (const r of repos.splice(0)) await r.cleanup();
});

const ROOT_IGNORE = [
  '# a comment',
  '*.log',
  '!important.log',
  'build/',
  '/root-only.txt',
  'docs/**/*.md',
  '**/temp',
  'a/**/b.txt',
  'vendor/**',
  '[abc].txt',
  '[!x]y.txt',
  '\\#hash',
  'name?.js',
  'node_modules',
  'spaced.txt   ',
  'only-dir/',
].join('\n');

const NESTED_IGNORE = ['/local.txt', 'sub/x.txt', '!keep-me.log', '*.gen.ts'].join('\n');

const PATHS = [
  'app.log', 'important.log', 'src/deep/trace.log', 'src/important.log',
  'build/out.js', 'src/build/out.js', 'build.txt',
  'root-only.txt', 'src/root-only.txt',
  'docs/a.md', 'docs/x/y/z.md', 'docs/readme.txt', 'other/docs/a.md',
  'temp/file', 'x/y/temp/file', 'temporary/file',
  'a/b.txt', 'a/x/b.txt', 'a/x/y/b.txt', 'b.txt',
  'vendor/lib/x.js', 'src/vendor/x.js',
  'a.txt', 'd.txt', 'zy.txt', 'xy.txt',
  '#hash', 'hash',
  'name1.js', 'name12.js',
  'node_modules/pkg/index.js', 'src/node_modules/x.js',
  'spaced.txt',
  'only-dir/file', 'src/only-dir',
  'pkg/local.txt', 'pkg/deeper/local.txt', 'pkg/sub/x.txt', 'pkg/deeper/sub/x.txt', 'pkg/keep-me.log', 'pkg/other.log', 'pkg/a.gen.ts', 'pkg/deeper/b.gen.ts', 'local.txt',
  'plain/file.ts',
];

describe('worktreeChanges and .gitignore', () => {
  it('treats as untracked exactly the files `git ls-files --others --exclude-standard` lists', async () => {
    const r = await gitRepo({});
    repos.push(r);
    writeFileSync(join(r.dir, '.gitignore'), `${ROOT_IGNORE}\n`);
    mkdirSync(join(r.dir, 'pkg'));
    writeFileSync(join(r.dir, 'pkg/.gitignore'), `${NESTED_IGNORE}\n`);
    writeFileSync(join(r.dir, '.git/info/exclude'), 'excluded-by-info.txt\n');
    for (const p of [...PATHS, 'excluded-by-info.txt']) {
      mkdirSync(join(r.dir, p, '..'), { recursive: true });
      writeFileSync(join(r.dir, p), p);
    }
    const native = r.git('ls-files', '--others', '--exclude-standard').split('\n').sort();
    const g = await openRepo(r.dir);
    // The main checkout as a worktree: its admin dir is .git, its base tree the empty commit's.
    const changes = await worktreeChanges(g, { path: r.dir, id: '', adminDir: join(r.dir, '.git') }, []);
    expect([...changes.keys()].sort()).toEqual(native);
    // Sanity: the fixture does exercise both outcomes.
    expect(native).toContain('important.log');
    expect(native).not.toContain('app.log');
    expect(native.length).toBeGreaterThan(15);
    expect(native.length).toBeLessThan(PATHS.length);
  });
});
