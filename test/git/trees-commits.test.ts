import { describe, expect, it } from 'vitest';
import {
  commitBytes,
  treeOfCommit,
  hashObject,
  hashBlob,
  listTree,
  openRepo,
  readCommit,
  writeBlob,
  writeCommit,
  writeTreeWith,
  type DryRunObjects,
  type TreeChange,
} from '../../src/git/index.js';
import { type TestRepo } from '../support/git-repo.js';
import { reposAfterEach } from '../support/cleanups.js';

const repo = reposAfterEach();

/** `git ls-tree -r` as "mode path oid" lines, in git's index order. */
function lsTree(r: TestRepo, tree: string): string[] {
  const out = r.git('ls-tree', '-r', tree);
  return out === ''
    ? []
    : out.split('\n').map((l) => {
        const [meta, path] = l.split('\t') as [string, string];
        const [mode, , oid] = meta.split(' ');
        return `${mode} ${path} ${oid}`;
      });
}

const FILES = {
  'README.md': '# readme\n',
  'bin/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 'exec' as const },
  'link-to-readme': { content: 'README.md', mode: 'symlink' as const },
  'src/a.ts': 'export const a = 1;\n',
  'src/a.b.ts': 'dots sort before the folder\n',
  'src/a/inner.ts': 'inner\n',
  'src/sub/deep/x.ts': 'x\n',
  'packages/web/index.ts': 'web\n',
  'packages/api/index.ts': 'api\n',
  'caf\u00e9/\u00e9t\u00e9.txt': 'unicode path\n',
};

describe('listTree', () => {
  it('lists every blob, symlink and submodule with the paths, modes and oids of git ls-tree -r', async () => {
    const r = await repo(FILES, { packed: true });
    // A submodule entry (gitlink) without a real submodule: git update-index --cacheinfo.
    const sub = r.head();
    r.git('update-index', '--add', '--cacheinfo', `160000,${sub},vendor/lib`);
    r.git('commit', '-q', '-m', 'gitlink');
    const g = await openRepo(r.dir);
    const tree = await treeOfCommit(g, r.head());
    expect(tree).toBe(r.git('rev-parse', 'HEAD^{tree}'));
    const ours = (await listTree(g, tree)).map((e) => `${e.mode} ${e.path} ${e.oid}`);
    // core.quotePath would escape the non-ASCII path; compare on raw names.
    expect(ours).toEqual(
      lsTree(r, tree)
        .map((l) => l.replace(/"(.*)"/, (_, p: string) => p))
        .map(unquoteOctal),
    );
    expect(ours).toContain(`160000 vendor/lib ${sub}`);
    expect(ours.find((l) => l.includes('bin/run.sh'))).toMatch(/^100755 /);
    expect(ours.find((l) => l.includes('link-to-readme'))).toMatch(/^120000 /);
  });

  it('with prefixes, lists only the paths under them', async () => {
    const r = await repo(FILES);
    const g = await openRepo(r.dir);
    const tree = await treeOfCommit(g, r.head());
    const paths = async (prefixes: string[]): Promise<string[]> => (await listTree(g, tree, { prefixes })).map((e) => e.path);
    expect(await paths(['src/'])).toEqual(['src/a.b.ts', 'src/a.ts', 'src/a/inner.ts', 'src/sub/deep/x.ts']);
    expect(await paths(['packages/web/', 'bin/'])).toEqual(['bin/run.sh', 'packages/web/index.ts']);
    expect(await paths(['src/a'])).toEqual(['src/a.b.ts', 'src/a.ts', 'src/a/inner.ts']);
    expect(await paths([''])).toHaveLength(Object.keys(FILES).length);
    expect(await paths(['nothing/'])).toEqual([]);
  });
});

/** git ls-tree quotes non-ASCII paths as octal escapes; turn them back into UTF-8. */
function unquoteOctal(line: string): string {
  if (!line.includes('\\')) return line;
  const bytes: number[] = [];
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\' && /^[0-7]{3}$/.test(line.slice(i + 1, i + 4))) {
      bytes.push(parseInt(line.slice(i + 1, i + 4), 8));
      i += 3;
    } else bytes.push(...Buffer.from(line[i] as string));
  }
  return Buffer.from(bytes).toString('utf8');
}

describe('writeTreeWith', () => {
  it('changes, adds (in new folders), removes (dropping emptied folders) and keeps everything else', async () => {
    const r = await repo(FILES, { packed: true });
    const g = await openRepo(r.dir);
    const base = await treeOfCommit(g, r.head());
    const changed = Buffer.from('export const a = 2;\n');
    const added = Buffer.from('brand new\n');
    const changes = new Map<string, TreeChange>([
      ['src/a.ts', { oid: await writeBlob(g, changed), mode: '100644' }],
      ['new/dir/deeper/file.ts', { oid: await writeBlob(g, added), mode: '100644' }],
      ['src/sub/deep/x.ts', null],
      ['not/there.txt', null],
    ]);
    const tree = await writeTreeWith(g, base, changes);
    const before = new Map(lsTree(r, base).map((l) => [l.split(' ')[1], l]));
    const after = new Map(lsTree(r, tree).map((l) => [l.split(' ')[1], l]));
    expect(after.get('src/a.ts')).toBe(`100644 src/a.ts ${hashBlob(changed)}`);
    expect(after.get('new/dir/deeper/file.ts')).toBe(`100644 new/dir/deeper/file.ts ${hashBlob(added)}`);
    expect(after.has('src/sub/deep/x.ts')).toBe(false);
    // The emptied folders are gone from the tree.
    expect(r.git('ls-tree', tree, 'src/')).not.toMatch(/\tsrc\/sub$/m);
    for (const [path, line] of before) if (!['src/a.ts', 'src/sub/deep/x.ts'].includes(path as string)) expect(after.get(path)).toBe(line);
    // Untouched subtrees are reused, not rewritten.
    expect(r.git('rev-parse', `${tree}:packages`)).toBe(r.git('rev-parse', `${base}:packages`));
    r.git('fsck', '--strict', '--no-dangling');
    r.git('fsck', '--strict', tree);
  });

  it('keeps an executable executable when its content changes with mode 100755, and can flip modes', async () => {
    const r = await repo(FILES);
    const g = await openRepo(r.dir);
    const base = await treeOfCommit(g, r.head());
    const tree = await writeTreeWith(
      g,
      base,
      new Map<string, TreeChange>([
        ['bin/run.sh', { oid: await writeBlob(g, Buffer.from('#!/bin/sh\necho changed\n')), mode: '100755' }],
        ['README.md', { oid: r.git('rev-parse', 'HEAD:README.md'), mode: '100755' }],
        ['link-to-readme', { oid: await writeBlob(g, Buffer.from('src/a.ts')), mode: '120000' }],
      ]),
    );
    expect(r.git('ls-tree', tree, 'bin/run.sh')).toMatch(/^100755 /);
    expect(r.git('ls-tree', tree, 'README.md')).toMatch(/^100755 /);
    expect(r.git('ls-tree', tree, 'link-to-readme')).toMatch(/^120000 /);
    expect(r.git('cat-file', 'blob', `${tree}:link-to-readme`)).toBe('src/a.ts');
  });

  it('sorts entries the way git does where names share a prefix (a.b, a/, a-b, a0)', async () => {
    const r = await repo({ 'p/a/x': '1\n' });
    const g = await openRepo(r.dir);
    const oid = await writeBlob(g, Buffer.from('n\n'));
    const tree = await writeTreeWith(
      g,
      await treeOfCommit(g, r.head()),
      new Map<string, TreeChange>(['p/a.b', 'p/a-b', 'p/a0', 'p/a', 'p/a/y', 'p/ab'].filter((p) => p !== 'p/a').map((p) => [p, { oid, mode: '100644' }])),
    );
    r.git('fsck', '--strict', tree);
    expect(r.git('ls-tree', '--name-only', `${tree}:p`).split('\n')).toEqual(['a-b', 'a.b', 'a', 'a0', 'ab']);
  });

  it('replaces a file by a folder and a folder by a file', async () => {
    const r = await repo({ 'x/y.txt': 'in folder\n', 'f.txt': 'a file\n' });
    const g = await openRepo(r.dir);
    const oid = await writeBlob(g, Buffer.from('z\n'));
    const tree = await writeTreeWith(
      g,
      await treeOfCommit(g, r.head()),
      new Map<string, TreeChange>([
        ['f.txt', null],
        ['f.txt/inside.txt', { oid, mode: '100644' }],
        ['x', { oid, mode: '100644' }],
        ['x/y.txt', null],
      ]),
    );
    expect(lsTree(r, tree)).toEqual([`100644 f.txt/inside.txt ${oid}`, `100644 x ${oid}`]);
    r.git('fsck', '--strict', tree);
  });

  it('in a dry run, gives the oid a real write gives and leaves .git byte-identical; later calls build on it', async () => {
    const r = await repo(FILES, { packed: true });
    const g = await openRepo(r.dir);
    const base = await treeOfCommit(g, r.head());
    const blob = Buffer.from('planned\n');
    const change = new Map<string, TreeChange>([['new/dir/p.ts', { oid: hashBlob(blob), mode: '100644' }]]);
    const memory: DryRunObjects = new Map();
    const listing = (): string => r.git('count-objects', '-v') + r.git('for-each-ref');
    const before = listing();
    const planned = await writeTreeWith(g, base, change, { dryRun: memory });
    const next = await writeTreeWith(g, planned, new Map([['src/a.ts', null]]), { dryRun: memory });
    expect(listing()).toBe(before);
    expect(() => r.git('cat-file', '-e', planned)).toThrow();
    await writeBlob(g, blob);
    expect(await writeTreeWith(g, base, change)).toBe(planned);
    expect(await writeTreeWith(g, planned, new Map([['src/a.ts', null]]))).toBe(next);
  });

  it('gives the empty tree when everything is removed, and refuses paths git would refuse', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const g = await openRepo(r.dir);
    const base = await treeOfCommit(g, r.head());
    expect(await writeTreeWith(g, base, new Map([['a.txt', null]]))).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
    const oid = await writeBlob(g, Buffer.from('x'));
    for (const bad of ['../up', 'a/./b', '.git/config', 'a//b', '/abs', 'dir/.GIT/x', '']) {
      await expect(writeTreeWith(g, base, new Map([[bad, { oid, mode: '100644' }]]))).rejects.toMatchObject({ kind: 'bad-path' });
    }
    await expect(writeTreeWith(g, base, new Map([['b', { oid: 'e'.repeat(40), mode: '100644' }]]))).rejects.toMatchObject({ kind: 'missing-object' });
    await expect(writeTreeWith(g, base, new Map([['b', { oid, mode: '100600' }]]))).rejects.toMatchObject({ kind: 'invalid-argument' });
  });
});

describe('writeCommit / readCommit', () => {
  it('writes a commit git shows with the given author, committer, zone, parents and message', async () => {
    const r = await repo({ 'a.txt': 'a\n' }, { packed: true });
    const g = await openRepo(r.dir);
    const parent = r.head();
    const tree = await writeTreeWith(g, await treeOfCommit(g, parent), new Map([['b.txt', { oid: await writeBlob(g, Buffer.from('b\n')), mode: '100644' }]]));
    const sha = await writeCommit(g, {
      tree,
      parents: [parent],
      message: 'refactor: one\n\nScion-Recipe: r\nScion-Job: j',
      author: { name: 'Ada <x>', email: 'ada@example.com', timestamp: 1_700_000_000, timezoneOffset: -120 },
      committer: { name: 'scion', email: 'scion@localhost', timestamp: 1_700_000_100, timezoneOffset: 330 },
    });
    r.git('fsck', '--strict', '--no-dangling');
    r.git('update-ref', 'refs/heads/check', sha);
    expect(r.git('show', '-s', '--format=%an|%ae|%ad|%cn|%ce|%cd|%P|%T', '--date=iso-strict', sha)).toBe(
      `Ada x|ada@example.com|2023-11-15T00:13:20+02:00|scion|scion@localhost|2023-11-14T16:45:00-05:30|${parent}|${tree}`,
    );
    expect(r.git('log', '-1', '--format=%B', sha)).toBe('refactor: one\n\nScion-Recipe: r\nScion-Job: j');
    expect(r.git('log', '-1', '--format=%(trailers:key=Scion-Job,valueonly)', sha)).toBe('j');
    const back = await readCommit(g, sha);
    expect(back).toEqual({
      tree,
      parents: [parent],
      message: 'refactor: one\n\nScion-Recipe: r\nScion-Job: j\n',
      author: { name: 'Ada x', email: 'ada@example.com', timestamp: 1_700_000_000, timezoneOffset: -120 },
      committer: { name: 'scion', email: 'scion@localhost', timestamp: 1_700_000_100, timezoneOffset: 330 },
    });
  });

  it('reads commits git made (root commit, merge with two parents)', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const g = await openRepo(r.dir);
    const root = await readCommit(g, r.head());
    expect(root.parents).toEqual([]);
    expect(root.author).toMatchObject({ name: 'Test User', email: 'test@example.com' });
    expect(root.message).toBe('initial\n');
    r.git('checkout', '-q', '-b', 'side');
    r.git('commit', '-q', '--allow-empty', '-m', 's');
    r.git('checkout', '-q', 'main');
    r.git('commit', '-q', '--allow-empty', '-m', 'm');
    r.git('merge', '-q', '--no-ff', '-m', 'merge', 'side');
    expect((await readCommit(g, r.head())).parents).toEqual([r.git('rev-parse', 'HEAD^1'), r.git('rev-parse', 'HEAD^2')]);
  });

  it('commitBytes + hashObject give the oid writeCommit will write, without writing (dry run)', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const g = await openRepo(r.dir);
    const c = {
      tree: await treeOfCommit(g, r.head()),
      parents: [r.head()],
      message: 'planned',
      author: { name: 'a', email: 'a@b', timestamp: 1, timezoneOffset: 0 },
    };
    const planned = hashObject('commit', commitBytes(c));
    const objectsBefore = r.git('count-objects', '-v');
    expect(() => r.git('cat-file', '-e', planned)).toThrow();
    expect(r.git('count-objects', '-v')).toBe(objectsBefore);
    expect(await writeCommit(g, c)).toBe(planned);
  });

  it('refuses to write a commit whose tree or parent is missing', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const g = await openRepo(r.dir);
    const who = { name: 'a', email: 'a@b' };
    await expect(writeCommit(g, { tree: 'a'.repeat(40), parents: [], message: 'm', author: who })).rejects.toMatchObject({ kind: 'missing-object' });
    await expect(writeCommit(g, { tree: await treeOfCommit(g, r.head()), parents: ['b'.repeat(40)], message: 'm', author: who })).rejects.toMatchObject({
      kind: 'missing-object',
    });
  });
});
