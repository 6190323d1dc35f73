// The .gitmodules rules, judged by native git: the config reader against `git config -f --list`
// on generated files, and each rule against `git fsck --strict` on real commits.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { gitmodulesProblem, MAX_GITMODULES_BYTES } from '../../src/core/gitmodules/check.js';
import { parseGitConfig } from '../../src/core/gitmodules/parse.js';
import { submoduleUrlProblem } from '../../src/core/gitmodules/url.js';
import { gitEnv } from '../support/git-repo.js';

const dir = mkdtempSync(join(tmpdir(), 'scion-gitmodules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const git = (args: string[], cwd = dir) => spawnSync('git', args, { cwd, env: gitEnv(), encoding: 'latin1' });

/** What `git config -f` reads from `bytes`: its entries (name, value or null), or null where it gives up. */
function nativeConfig(bytes: Buffer): [string, string | null][] | null {
  const file = join(dir, 'config');
  writeFileSync(file, bytes);
  const r = git(['config', '-f', file, '--list', '-z']);
  if (r.status !== 0) return null;
  return r.stdout
    .split('\0')
    .slice(0, -1)
    .map((e) => {
      const nl = e.indexOf('\n');
      return nl === -1 ? [e, null] : [e.slice(0, nl), e.slice(nl + 1)];
    });
}

describe('parseGitConfig', () => {
  it('reads exactly what git config reads, and fails exactly where it fails', () => {
    // Pieces of config syntax, right and wrong, glued together at random.
    const piece = fc.constantFrom(
      '[submodule "a"]',
      '[submodule "a\\"b\\\\c"]',
      '[Sub.Name]',
      '[s "x" ]',
      '[s "x"',
      '[]',
      '[ s]',
      '[s x]',
      '[a.b "c"]',
      'url = x',
      'URL=y',
      'path = "a ; b"',
      'k = a \\\n b',
      'k = "q',
      'k = \\t\\n\\b\\\\\\"',
      'k = \\q',
      'k',
      'k-2 =',
      'k2= a  b  ',
      '#c',
      '; c',
      '  ',
      '\t',
      '=x',
      '1k = 2',
      'k = a # c',
      'k = "a # c"',
      'k\t=\tv',
      'k ; c',
      'k x',
      '\r',
      '"',
      '\\',
    );
    const text = fc.array(fc.tuple(piece, fc.constantFrom('\n', '\r\n', '', ' ')), { maxLength: 6 }).map((parts) => parts.map(([p, end]) => p + end).join(''));
    fc.assert(
      fc.property(text, (t) => {
        const bytes = Buffer.from(t, 'latin1');
        const ours = parseGitConfig(bytes);
        const theirs = nativeConfig(bytes);
        expect(ours.ok ? ours.value.map((e) => [e.name, e.value]) : null).toEqual(theirs);
      }),
      { numRuns: 300 },
    );
  });

  it('places a parse error on the line git names', () => {
    expect(parseGitConfig(Buffer.from('[a]\nk = 1\nk = "x\nj = 2\n'))).toMatchObject({ ok: false, error: { line: 3 } });
    expect(parseGitConfig(Buffer.from('[a "b"\nk = 1\n'))).toMatchObject({ ok: false, error: { line: 1 } });
  });
});

describe('submoduleUrlProblem', () => {
  it('accepts the URLs submodules use', () => {
    for (const url of [
      'https://example.com/a.git',
      'https://user:pw@example.com:8443/a.git?x=1#y',
      'http://[::1]:8080/x',
      'ftp://example.com/x',
      'http::https://example.com/a.git',
      'git@github.com:acme/a.git',
      'ssh://git@example.com/a',
      'git://example.com/a.git',
      '../a.git',
      './a',
      '../../x/y',
      'file:///srv/a.git',
      '/srv/a.git',
      'C:/a',
      'https://example.com/a/../b.git',
      'https://example.com/%41',
    ]) {
      expect(submoduleUrlProblem(url), url).toBeNull();
    }
  });

  it('refuses what fsck refuses, in the rule of git before 2.44 and since', () => {
    const bad: [string, RegExp][] = [
      ['-u', /command-line option/],
      ['--upload-pack=x', /command-line option/],
      ['./a%0a', /newline/],
      ['git://example.com/%0a', /newline/],
      ['../:x', /climbs/],
      ['..\\../:x', /climbs/],
      ['./../../x:/', /^/], // fine: "x:" follows, not ":" or "/"
      ['https:///example.com', /no host/],
      ['https://', /no host/],
      ['http::example.com/a', /scheme/],
      ['https://example.com%0a/a', /newline/],
      ['https://u%0a@example.com/a', /newline/],
      ['https://example.com/a%0ab', /newline/],
      // Only since git 2.44 (url_normalize): a port out of range, a bad host, a broken escape, ".." above the root.
      ['https://example.com:99999/a', /port/],
      ['https://example.com:0/a', /port/],
      ['https://ex ample.com/a', /host/],
      ['https://example.com/%zz', /escape/],
      ['https://example.com/../a', /climbs above/],
    ];
    for (const [url, why] of bad) {
      if (url === './../../x:/') expect(submoduleUrlProblem(url)).toBeNull();
      else expect(submoduleUrlProblem(url), url).toMatch(why);
    }
  });
});

describe('gitmodulesProblem', () => {
  const sm = (body: string) => Buffer.from(`[submodule "a"]\n\tpath = a\n${body}`);
  it('names the rule and the line', () => {
    expect(gitmodulesProblem(sm('\turl = https://example.com/a.git\n'))).toBeNull();
    expect(gitmodulesProblem(sm('\turl = -x\n'))).toMatchObject({ rule: 'gitmodulesUrl', line: 3 });
    expect(gitmodulesProblem(Buffer.from('[submodule "x/.."]\n\tpath = a\n'))).toMatchObject({ rule: 'gitmodulesName', line: 1 });
    expect(gitmodulesProblem(Buffer.from('[submodule "x/..a"]\n\tpath = a\n'))).toBeNull();
    expect(gitmodulesProblem(Buffer.from('[submodule]\n\turl = -x\n'))).toBeNull(); // no name: git ignores it
    expect(gitmodulesProblem(Buffer.from('[other "a"]\n\turl = -x\n'))).toBeNull();
    expect(gitmodulesProblem(Buffer.from('[SubModule "a"]\n\tURL = -x\n'))).toMatchObject({ rule: 'gitmodulesUrl' });
    expect(gitmodulesProblem(Buffer.from('[submodule.A]\n\tpath = -x\n'))).toMatchObject({ rule: 'gitmodulesPath' });
    expect(gitmodulesProblem(sm('\tupdate = !x\n'))).toMatchObject({ rule: 'gitmodulesUpdate' });
    expect(gitmodulesProblem(sm('\tupdate = none\n'))).toBeNull();
    expect(gitmodulesProblem(sm('\turl\n'))).toBeNull(); // a bare key has no value to judge
    expect(gitmodulesProblem(sm('\t\\\n'))).toMatchObject({ rule: 'gitmodulesParse', line: 3 });
    expect(gitmodulesProblem(Buffer.alloc(MAX_GITMODULES_BYTES + 1, 0x23))).toMatchObject({ rule: 'gitmodulesLarge' });
    expect(gitmodulesProblem(Buffer.from([0xef, 0xbb, 0xbf, 0x23]))).toMatchObject({ rule: 'gitmodulesParse', line: 1 });
    expect(gitmodulesProblem(Buffer.from('#\n#\n# \u00ff\n'))).toBeNull(); // U+00FF is 0xC3 0xBF in UTF-8, no 0xFF byte
    expect(gitmodulesProblem(Buffer.from([0x23, 0x0a, 0x23, 0xff]))).toMatchObject({ rule: 'gitmodulesParse', line: 2 });
  });

  it('agrees with git fsck --strict on each url, file by file', () => {
    const urls = [
      'https://example.com/a.git',
      '../a.git',
      'git@github.com:a/b.git',
      '-x',
      './a%0a',
      '../:x',
      'https:///x',
      'http::x/y',
      'https://x%0a/y',
      'https://u%0a@x/y',
      'ftp://x/%0a',
      'git://x/%0a',
      'ssh://host/x',
      'https://[::1]/x',
    ];
    const repo = mkdtempSync(join(dir, 'fsck-'));
    git(['init', '-q'], repo);
    const oids = urls.map((url, i) => {
      const file = join(repo, `m${i}`);
      writeFileSync(file, `[submodule "a"]\n\tpath = a\n\turl = ${url}\n`);
      const oid = git(['hash-object', '-w', file], repo).stdout.trim();
      git(['update-index', '--add', '--cacheinfo', `100644,${oid},d${i}/.gitmodules`], repo);
      return oid;
    });
    git(['update-ref', 'HEAD', git(['commit-tree', git(['write-tree'], repo).stdout.trim(), '-m', 'x'], repo).stdout.trim()], repo);
    const out = git(['fsck', '--strict', '--no-progress', '--no-dangling'], repo);
    const refusedByGit = urls.filter((_, i) => out.stderr.includes(`${oids[i]}: gitmodulesUrl`));
    expect(urls.filter((u) => submoduleUrlProblem(u) !== null)).toEqual(refusedByGit);
    expect(refusedByGit.length).toBeGreaterThan(5);
  });
});
