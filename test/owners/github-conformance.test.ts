// GitHub's reading of CODEOWNERS, case by case against the sentences of "About code owners" (and of
// git's gitignore documentation, whose rules GitHub says it follows "most of").
import { describe, expect, it } from 'vitest';
import { GITHUB_MAX_BYTES, codeownersFor } from '../../src/owners/index.js';
import { GIT, GITHUB } from './docs.js';
import { file, github, ownersOf } from './helpers.js';

// The example file of "About code owners", as published (its comments dropped, line numbers kept apart).
const EXAMPLE = file(
  '*       @global-owner1 @global-owner2', // 1
  '*.js    @js-owner #This is an inline comment.', // 2
  '*.go docs@example.com', // 3
  '*.txt @octo-org/octocats', // 4
  '/build/logs/ @doctocat', // 5
  'docs/*  docs@example.com', // 6
  'apps/ @octocat', // 7
  '/docs/ @doctocat', // 8
  '/scripts/ @doctocat @octocat', // 9
  '**/logs @octocat', // 10
  '/apps/ @octocat', // 11
  '/apps/github', // 12
);

describe('GitHub: the example file of "About code owners"', () => {
  const co = github(EXAMPLE);

  it(GITHUB.exampleDefault, () => {
    expect(ownersOf(co, 'README.md')).toEqual(['@global-owner1', '@global-owner2']);
    expect(ownersOf(co, 'src/deep/file.rb')).toEqual(['@global-owner1', '@global-owner2']);
  });

  it(GITHUB.exampleOrder, () => {
    expect(ownersOf(co, 'src/index.js')).toEqual(['@js-owner']);
    expect(co.ownerOf('src/index.js').rules).toEqual([{ line: 2, pattern: '*.js', section: null }]);
  });

  it(`an inline comment is not an owner: ${GITHUB.exampleInlineComment}`, () => {
    expect(co.rules.find((r) => r.line === 2)?.owners).toEqual(['@js-owner']);
    expect(co.skipped).toEqual([]);
  });

  it(GITHUB.exampleEmail, () => {
    expect(ownersOf(co, 'cmd/main.go')).toEqual(['docs@example.com']);
  });

  it(GITHUB.exampleTeam, () => {
    expect(ownersOf(co, 'notes/todo.txt')).toEqual(['@octo-org/octocats']);
  });

  it(GITHUB.exampleBuildLogs, () => {
    expect(ownersOf(co, 'build/logs/today.log')).toEqual(['@octocat']); // line 10 (**/logs) comes later and wins
    const only = github(file('/build/logs/ @doctocat'));
    expect(ownersOf(only, 'build/logs/today.log')).toEqual(['@doctocat']);
    expect(ownersOf(only, 'build/logs/2024/01/today.log')).toEqual(['@doctocat']);
    expect(ownersOf(only, 'src/build/logs/today.log')).toEqual([]);
    expect(ownersOf(only, 'build/logs')).toEqual([]); // a file named logs is not the directory
  });

  it(GITHUB.exampleDocsStar, () => {
    const only = github(file('docs/*  docs@example.com'));
    expect(ownersOf(only, 'docs/getting-started.md')).toEqual(['docs@example.com']);
    expect(ownersOf(only, 'docs/build-app/troubleshooting.md')).toEqual([]);
    // A separator in the middle anchors it at the root (gitignore's rule).
    expect(ownersOf(only, 'site/docs/getting-started.md')).toEqual([]);
  });

  it(GITHUB.exampleApps, () => {
    const only = github(file('apps/ @octocat'));
    expect(ownersOf(only, 'apps/web/index.ts')).toEqual(['@octocat']);
    expect(ownersOf(only, 'services/apps/api/main.go')).toEqual(['@octocat']);
    expect(ownersOf(only, 'deeply/nested/apps/x')).toEqual(['@octocat']);
    expect(ownersOf(only, 'apps')).toEqual([]);
    expect(ownersOf(only, 'myapps/x')).toEqual([]);
  });

  it(GITHUB.exampleRootDocs, () => {
    expect(ownersOf(co, 'docs/getting-started.md')).toEqual(['@doctocat']); // line 8 comes after line 6
    expect(ownersOf(co, 'docs/build-app/troubleshooting.md')).toEqual(['@doctocat']);
    expect(ownersOf(github(file('/docs/ @doctocat')), 'site/docs/a.md')).toEqual([]);
  });

  it(GITHUB.exampleScripts, () => {
    expect(ownersOf(co, 'scripts/deploy.sh')).toEqual(['@doctocat', '@octocat']);
  });

  it(GITHUB.exampleLogs, () => {
    for (const p of ['build/logs/a.txt', 'scripts/logs/b', 'deeply/nested/logs/c.log', 'logs/root.log']) {
      expect(ownersOf(co, p), p).toEqual(['@octocat']);
    }
  });

  it(GITHUB.exampleEmptyOwners, () => {
    expect(ownersOf(co, 'apps/web/index.ts')).toEqual(['@octocat']);
    expect(ownersOf(co, 'apps/github/index.ts')).toEqual([]);
    expect(co.ownerOf('apps/github/index.ts').rules).toEqual([{ line: 12, pattern: '/apps/github', section: null }]);
  });

  it(GITHUB.exampleOwnOwner, () => {
    const co2 = github(file('/apps/ @octocat', '/apps/github @doctocat'));
    expect(ownersOf(co2, 'apps/web/index.ts')).toEqual(['@octocat']);
    expect(ownersOf(co2, 'apps/github/index.ts')).toEqual(['@doctocat']);
    expect(ownersOf(co2, 'apps/github')).toEqual(['@doctocat']); // a file of that name, too
  });
});

describe('GitHub: syntax and owners', () => {
  it(GITHUB.sameLine, () => {
    const co = github(file('* @alice', '* @bob'));
    expect(ownersOf(co, 'x.ts')).toEqual(['@bob']);
  });

  it(GITHUB.caseSensitive, () => {
    const co = github(file('README.md @docs', '/Src/ @src'));
    expect(ownersOf(co, 'README.md')).toEqual(['@docs']);
    expect(ownersOf(co, 'readme.md')).toEqual([]);
    expect(ownersOf(co, 'Src/a.ts')).toEqual(['@src']);
    expect(ownersOf(co, 'src/a.ts')).toEqual([]);
  });

  it(`${GITHUB.ownerFormat} ${GITHUB.email} ${GITHUB.invalidLine}`, () => {
    const co = github(file('* @everyone', '/a/ @alice @acme/web a.b@example.com', '/b/ @alice bob', '/c/ @acme/web/extra', '/d/ @'));
    expect(ownersOf(co, 'a/x')).toEqual(['@alice', '@acme/web', 'a.b@example.com']);
    // Each of the other lines names something that is not an owner: the whole line is skipped.
    for (const p of ['b/x', 'c/x', 'd/x']) expect(ownersOf(co, p), p).toEqual(['@everyone']);
    expect(co.skipped.map((s) => s.line)).toEqual([3, 4, 5]);
    expect(co.skipped[0]?.reason).toContain("'bob'");
    expect(co.skipped[0]?.text).toBe('/b/ @alice bob');
  });

  it(`a line of owners alone is a pattern (the first word) and its owners; ${GITHUB.ownerFormat}`, () => {
    const co = github(file('@acme/maintainers @alice'));
    expect(co.rules).toEqual([{ line: 1, pattern: '@acme/maintainers', owners: ['@alice'], section: null, exclusion: false }]);
    expect(ownersOf(co, 'src/a.ts')).toEqual([]);
  });

  it(`${GIT.blank} ${GIT.comment}`, () => {
    const co = github(file('# * @nobody', '', '   ', '  # indented comment', '*.md @docs'));
    expect(co.rules.map((r) => r.line)).toEqual([5]);
    expect(co.skipped).toEqual([]);
  });

  it('lines may end with CRLF, and a byte-order mark does not belong to the first pattern', () => {
    const co = github('\uFEFF*.md @docs\r\n/src/ @dev\r\n');
    expect(ownersOf(co, 'a.md')).toEqual(['@docs']);
    expect(ownersOf(co, 'src/a.ts')).toEqual(['@dev']);
  });

  it(GIT.trailingSpaces, () => {
    const co = github('/notes\\  @docs\n/plain   \n');
    expect(ownersOf(co, 'notes ')).toEqual(['@docs']);
    expect(ownersOf(co, 'notes')).toEqual([]);
    expect(co.rules[1]?.pattern).toBe('/plain');
  });
});

describe(`GitHub: syntax exceptions, and "${GITHUB.invalidLine}"`, () => {
  it(GITHUB.exceptionHash, () => {
    const co = github(file('* @all', '\\#notes @hash'));
    expect(ownersOf(co, '#notes')).toEqual(['@all']);
    expect(co.skipped).toHaveLength(1);
    expect(co.skipped[0]).toMatchObject({ line: 2, text: '\\#notes @hash' });
    expect(co.skipped[0]?.reason).toMatch(/\\#/);
  });

  it(GITHUB.exceptionBang, () => {
    const co = github(file('* @all', '!*.md @nobody', '*.md @docs'));
    expect(ownersOf(co, 'a.md')).toEqual(['@docs']);
    expect(ownersOf(co, 'a.ts')).toEqual(['@all']);
    expect(co.skipped.map((s) => s.line)).toEqual([2]);
    expect(co.skipped[0]?.reason).toMatch(/!/);
  });

  it(GITHUB.exceptionRange, () => {
    const co = github(file('* @all', '*.[ch] @c-team', 'src/[A-Z]*.ts @upper'));
    expect(ownersOf(co, 'main.c')).toEqual(['@all']);
    expect(ownersOf(co, 'src/App.ts')).toEqual(['@all']);
    expect(co.skipped.map((s) => s.line)).toEqual([2, 3]);
    expect(co.skipped[0]?.reason).toMatch(/\[ \]/);
  });

  it(`${GIT.backslash}; a lone [ is an ordinary character`, () => {
    const co = github(file('/a\\*b @star', '/odd[name @odd'));
    expect(ownersOf(co, 'a*b')).toEqual(['@star']);
    expect(ownersOf(co, 'axb')).toEqual([]);
    expect(ownersOf(co, 'odd[name')).toEqual(['@odd']);
    expect(co.skipped).toEqual([]);
  });

  it(GIT.backslashEnd, () => {
    // At the end of a line only: a backslash before a space escapes the space, into the pattern.
    const co = github(file('* @all', '/docs @docs', '/docs\\'));
    expect(ownersOf(co, 'docs/a.md')).toEqual(['@docs']);
    expect(co.skipped.map((s) => s.line)).toEqual([3]);
    expect(github(file('/docs\\ @docs')).rules[0]?.pattern).toBe('/docs\\ @docs');
  });
});

describe(`GitHub: gitignore's pattern rules (${GITHUB.gitignore})`, () => {
  it(GIT.anchoring, () => {
    const co = github(file('/root-only.txt @a', 'any-depth.txt @b', 'mid/dle.txt @c'));
    expect(ownersOf(co, 'root-only.txt')).toEqual(['@a']);
    expect(ownersOf(co, 'x/root-only.txt')).toEqual([]);
    expect(ownersOf(co, 'x/y/any-depth.txt')).toEqual(['@b']);
    expect(ownersOf(co, 'mid/dle.txt')).toEqual(['@c']);
    expect(ownersOf(co, 'x/mid/dle.txt')).toEqual([]);
  });

  it(GIT.trailingSlash, () => {
    const co = github(file('build/ @dirs'));
    expect(ownersOf(co, 'build/out.js')).toEqual(['@dirs']);
    expect(ownersOf(co, 'build')).toEqual([]);
  });

  it(GIT.frotz, () => {
    const co = github(file('doc/frotz/ @a', 'frotz/ @b'));
    expect(ownersOf(co, 'doc/frotz/x')).toEqual(['@b']);
    const a = github(file('doc/frotz/ @a'));
    expect(ownersOf(a, 'doc/frotz/x')).toEqual(['@a']);
    expect(ownersOf(a, 'a/doc/frotz/x')).toEqual([]);
    const b = github(file('frotz/ @b'));
    expect(ownersOf(b, 'frotz/x')).toEqual(['@b']);
    expect(ownersOf(b, 'a/frotz/x')).toEqual(['@b']);
  });

  it(GIT.star, () => {
    const co = github(file('/src/*.ts @ts', '/v?.txt @v'));
    expect(ownersOf(co, 'src/a.ts')).toEqual(['@ts']);
    expect(ownersOf(co, 'src/lib/a.ts')).toEqual([]);
    expect(ownersOf(co, 'v1.txt')).toEqual(['@v']);
    expect(ownersOf(co, 'v10.txt')).toEqual([]);
    expect(ownersOf(co, 'v/.txt')).toEqual([]);
  });

  it(GIT.leadingStars, () => {
    const a = github(file('**/foo @a'));
    const b = github(file('foo @a'));
    for (const p of ['foo', 'x/foo', 'x/y/foo/z.txt', 'foo/bar']) {
      expect(ownersOf(a, p), p).toEqual(['@a']);
      expect(ownersOf(b, p), p).toEqual(['@a']);
    }
    expect(ownersOf(github(file('**/foo/bar @a')), 'x/foo/bar')).toEqual(['@a']);
    expect(ownersOf(github(file('**/foo/bar @a')), 'foo/x/bar')).toEqual([]);
  });

  it(GIT.trailingStars, () => {
    const co = github(file('abc/** @a'));
    expect(ownersOf(co, 'abc/x')).toEqual(['@a']);
    expect(ownersOf(co, 'abc/x/y/z')).toEqual(['@a']);
    expect(ownersOf(co, 'abc')).toEqual([]);
    expect(ownersOf(co, 'x/abc/y')).toEqual([]);
  });

  it(GIT.middleStars, () => {
    const co = github(file('a/**/b @a'));
    for (const p of ['a/b', 'a/x/b', 'a/x/y/b', 'a/x/b/file']) expect(ownersOf(co, p), p).toEqual(['@a']);
    expect(ownersOf(co, 'a/xb')).toEqual([]);
  });

  it(GIT.otherStars, () => {
    const co = github(file('/src/**.ts @a'));
    expect(ownersOf(co, 'src/x.ts')).toEqual(['@a']);
    expect(ownersOf(co, 'src/x/y.ts')).toEqual([]);
  });

  it(GIT.hello, () => {
    const any = github(file('hello.* @a'));
    expect(ownersOf(any, 'a/hello.java')).toEqual(['@a']);
    const root = github(file('/hello.* @a'));
    expect(ownersOf(root, 'hello.txt')).toEqual(['@a']);
    expect(ownersOf(root, 'hello.c')).toEqual(['@a']);
    expect(ownersOf(root, 'a/hello.java')).toEqual([]);
  });

  it(GIT.sameEffect, () => {
    for (const p of ['doc/frotz', 'doc/frotz/x.md', 'a/doc/frotz']) {
      expect(ownersOf(github(file('doc/frotz @a')), p), p).toEqual(ownersOf(github(file('/doc/frotz @a')), p));
    }
  });

  it('`*` matches dotfiles, as in gitignore', () => {
    const co = github(file('* @all', '/.github/ @ci'));
    expect(ownersOf(co, '.gitignore')).toEqual(['@all']);
    expect(ownersOf(co, '.github/workflows/ci.yml')).toEqual(['@ci']);
  });

  it('a lone `/*` owns the files at the root, not the folders there (like `docs/*`)', () => {
    const co = github(file('/* @root'));
    expect(ownersOf(co, 'package.json')).toEqual(['@root']);
    expect(ownersOf(co, 'src/index.ts')).toEqual([]);
  });
});

describe('GitHub: which file', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);

  it(GITHUB.location, async () => {
    const tree: Record<string, string> = {
      '.github/CODEOWNERS': '* @from-github-folder\n',
      CODEOWNERS: '* @from-root\n',
      'docs/CODEOWNERS': '* @from-docs\n',
    };
    const read = (p: string) => (p in tree ? bytes(tree[p] as string) : undefined);
    const first = await codeownersFor(read, { dialect: 'github' });
    expect(first?.file).toBe('.github/CODEOWNERS');
    expect(ownersOf(first!, 'a')).toEqual(['@from-github-folder']);

    delete tree['.github/CODEOWNERS'];
    expect((await codeownersFor(read, { dialect: 'github' }))?.file).toBe('CODEOWNERS');
    delete tree.CODEOWNERS;
    expect((await codeownersFor(read, { dialect: 'github' }))?.file).toBe('docs/CODEOWNERS');
    delete tree['docs/CODEOWNERS'];
    tree['.gitlab/CODEOWNERS'] = '* @gitlab-only\n';
    expect(await codeownersFor(read, { dialect: 'github' })).toBeUndefined();
  });

  it('reads through an asynchronous reader (a workspace over the base tree)', async () => {
    const co = await codeownersFor(async (p) => (p === 'CODEOWNERS' ? bytes('*.md @docs\n') : null), { dialect: 'github' });
    expect(co?.file).toBe('CODEOWNERS');
    expect(ownersOf(co!, 'README.md')).toEqual(['@docs']);
  });

  it(GITHUB.size, async () => {
    const line = '/some/long/path/name/that/fills/the/file/quickly.txt @owner\n';
    const big = line.repeat(Math.ceil(GITHUB_MAX_BYTES / line.length));
    expect(big.length).toBeGreaterThanOrEqual(GITHUB_MAX_BYTES);
    const co = await codeownersFor((p) => (p === '.github/CODEOWNERS' ? bytes(`* @everyone\n${big}`) : undefined), { dialect: 'github' });
    expect(co?.rules).toEqual([]);
    expect(ownersOf(co!, 'README.md')).toEqual([]);
    expect(co?.warnings).toHaveLength(1);
    expect(co?.warnings[0]).toMatchObject({ line: 0 });
    expect(co?.warnings[0]?.reason).toMatch(/3 MB/);

    // Just under the limit, it is read.
    const under = `* @everyone\n${'#'.repeat(GITHUB_MAX_BYTES - 20)}\n`;
    expect(ownersOf(github(under), 'README.md')).toEqual(['@everyone']);
  });
});
