import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openRepo, worktreeChanges } from '../../src/git/index.js';
import { IgnoreRules } from '../../src/git/ignore.js';
import { gitEnv, gitRepo, type TestRepo } from '../support/git-repo.js';

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
  'app.log',
  'important.log',
  'src/deep/trace.log',
  'src/important.log',
  'build/out.js',
  'src/build/out.js',
  'build.txt',
  'root-only.txt',
  'src/root-only.txt',
  'docs/a.md',
  'docs/x/y/z.md',
  'docs/readme.txt',
  'other/docs/a.md',
  'temp/file',
  'x/y/temp/file',
  'temporary/file',
  'a/b.txt',
  'a/x/b.txt',
  'a/x/y/b.txt',
  'b.txt',
  'vendor/lib/x.js',
  'src/vendor/x.js',
  'a.txt',
  'd.txt',
  'zy.txt',
  'xy.txt',
  '#hash',
  'hash',
  'name1.js',
  'name12.js',
  'node_modules/pkg/index.js',
  'src/node_modules/x.js',
  'spaced.txt',
  'only-dir/file',
  'src/only-dir',
  'pkg/local.txt',
  'pkg/deeper/local.txt',
  'pkg/sub/x.txt',
  'pkg/deeper/sub/x.txt',
  'pkg/keep-me.log',
  'pkg/other.log',
  'pkg/a.gen.ts',
  'pkg/deeper/b.gen.ts',
  'local.txt',
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

describe('IgnoreRules against git check-ignore', () => {
  it('agrees with git on tricky patterns and on a nested .gitignore overriding the top one', async () => {
    const r = await gitRepo({ 'x.txt': 'x\n' });
    repos.push(r);
    const top = [
      '*.log',
      '!keep.log',
      'build/',
      '/root-only.txt',
      'docs/**/*.md',
      'a/**/b',
      'foo[0-9].txt',
      'bar[!x].txt',
      '\\#hash',
      '**/deep/',
      'x/*/y',
      '*.tmp/',
      '[]]x',
      '\\!bang',
      'abc/**',
      'sub/own.txt',
    ].join('\n');
    const sub = ['!*.log', 'local', '/anchored', 'keep.log'].join('\n');
    writeFileSync(join(r.dir, '.gitignore'), `${top}\n`);
    mkdirSync(join(r.dir, 'sub'), { recursive: true });
    writeFileSync(join(r.dir, 'sub/.gitignore'), `${sub}\n`);
    const rules = IgnoreRules.empty().with(top, '').with(sub, 'sub');
    const paths = [
      'debug.log',
      'keep.log',
      'sub/keep.log',
      'sub/debug.log',
      'sub/x/debug.log',
      'build/out.js',
      'root-only.txt',
      'sub/root-only.txt',
      'docs/a/b/c.md',
      'docs/c.md',
      'a/b',
      'a/x/y/b',
      'foo1.txt',
      'fooa.txt',
      'bara.txt',
      'barx.txt',
      '#hash',
      'q/deep/f',
      'deep/f',
      'x/m/y',
      'x/m/n/y',
      'd.tmp/f',
      ']x',
      '!bang',
      'abc/def',
      'abc',
      'sub/local',
      'sub/z/local',
      'sub/anchored',
      'sub/z/anchored',
      'sub/own.txt',
    ];
    const git = new Map<string, boolean>();
    const out = execFileSync('git', ['check-ignore', '--no-index', '--stdin', '-v', '-n'], {
      cwd: r.dir,
      env: gitEnv(),
      input: paths.join('\n'),
      encoding: 'utf8',
    });
    for (const line of out.trimEnd().split('\n')) {
      const [source, path] = line.split('\t') as [string, string];
      const pattern = source.split(':').slice(2).join(':');
      git.set(path, pattern !== '' && !pattern.startsWith('!'));
    }
    // A path is ignored when it or a parent folder is (git never looks inside an ignored folder).
    const mine = (p: string): boolean => {
      const parts = p.split('/');
      for (let i = 1; i < parts.length; i++) if (rules.ignored(parts.slice(0, i).join('/'), true)) return true;
      return rules.ignored(p, false);
    };
    expect(Object.fromEntries(paths.map((p) => [p, mine(p)]))).toEqual(Object.fromEntries(paths.map((p) => [p, git.get(p)])));
  });
});
