// A change divided by owner: one piece per owner set, named by a stable slug, large pieces cut by folder.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { ownerKinds, slugOf, splitByOwners, type Piece } from '../../src/owners/index.js';
import { file, github, gitlab } from './helpers.js';

const hash8 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 8);
const summary = (pieces: readonly Piece[]) => pieces.map((p) => [p.name, p.owners, p.files, p.directory]);

describe('pieces', () => {
  const co = github(file('/web/ @acme/team-web', '/api/ @alice @acme/team-api', '/api/docs/', '/shared/ @acme/team-web'));

  it('one piece per owner set, files nobody owns in `unowned`, slugs like team-web and alice+team-api', () => {
    const pieces = splitByOwners(['web/a.ts', 'api/b.ts', 'README.md', 'shared/c.ts', 'api/docs/x.md'], co);
    expect(summary(pieces)).toEqual([
      ['alice+team-api', ['@acme/team-api', '@alice'], ['api/b.ts'], null],
      ['team-web', ['@acme/team-web'], ['shared/c.ts', 'web/a.ts'], null],
      ['unowned', [], ['README.md', 'api/docs/x.md'], null],
    ]);
  });

  it('a path given twice counts once, and order does not matter', () => {
    const a = splitByOwners(['web/a.ts', 'api/b.ts', 'web/a.ts'], co);
    const b = splitByOwners(['api/b.ts', 'web/a.ts'], co);
    expect(a).toEqual(b);
    expect(a.flatMap((p) => p.files)).toEqual(['api/b.ts', 'web/a.ts']);
  });

  it('without a CODEOWNERS file every path is unowned', () => {
    expect(summary(splitByOwners(['b', 'a/c'], undefined))).toEqual([['unowned', [], ['a/c', 'b'], null]]);
  });

  it('an empty change has no pieces', () => {
    expect(splitByOwners([], co)).toEqual([]);
  });

  it('GitLab pieces use the union of every section', () => {
    const gl = gitlab(file('* @admin', '[Docs]', '*.md @docs'));
    expect(summary(splitByOwners(['a.md', 'b.ts', 'c.md'], gl))).toEqual([
      ['admin', ['@admin'], ['b.ts'], null],
      ['admin+docs', ['@admin', '@docs'], ['a.md', 'c.md'], null],
    ]);
  });

  it('two spellings of one owner are one owner (user and group names are case-insensitive on both hosts)', () => {
    const mixed = github(file('/a/ @Alice', '/b/ @alice'));
    const pieces = splitByOwners(['b/1', 'a/1'], mixed);
    expect(summary(pieces)).toEqual([['alice', ['@Alice'], ['a/1', 'b/1'], null]]);
  });

  it('slugs: a team by its name, an e-mail by its local part, a role without @@, other characters as -, cut to 40', () => {
    expect(slugOf(['@org/Team.Web'])).toBe('team-web');
    expect(slugOf(['jane.doe@example.com'])).toBe('jane-doe');
    expect(slugOf(['@@maintainer', '@group/sub/backend'])).toBe('backend+maintainer');
    expect(slugOf([])).toBe('unowned');
    const long = slugOf(['@org/a-very-long-team-name-for-the-platform', '@org/another-long-team-name']);
    expect(long).toBe('a-very-long-team-name-for-the-platform+a');
    expect(long.length).toBeLessThanOrEqual(40);
    expect(slugOf(['@org/abcdefghijklmnopqrstuvwxyz0123456789abc-xyz'])).toBe('abcdefghijklmnopqrstuvwxyz0123456789abc'); // no trailing '-'
  });

  it('two owner sets that would share a slug both get a part of a hash of their owner set, the same on every run', () => {
    const twoWebs = github(file('/a/ @acme/web', '/b/ @other/web', '/c/ @solo'));
    const pieces = splitByOwners(['a/1', 'b/1', 'c/1'], twoWebs);
    expect(pieces.map((p) => p.name).sort()).toEqual(['solo', `web-${hash8('@acme/web')}`, `web-${hash8('@other/web')}`].sort());
    // Alone, the slug needs no hash.
    expect(splitByOwners(['a/1'], twoWebs).map((p) => p.name)).toEqual(['web']);
  });

  it('maxFiles cuts a large piece by folder: whole folders where they fit, each cut piece named slug-hash', () => {
    const all = github(file('* @team'));
    const paths = ['src/a/1', 'src/a/2', 'src/b/1', 'src/b/2', 'src/b/3', 'docs/x', 'README.md'];
    const pieces = splitByOwners(paths, all, { maxFiles: 2 });
    expect(pieces.map((p) => [p.files, p.directory]).sort()).toEqual(
      [
        [['README.md', 'docs/x'], ''],
        [['src/a/1', 'src/a/2'], 'src/a'],
        [['src/b/1', 'src/b/2'], 'src/b'],
        [['src/b/3'], 'src/b'],
      ].sort(),
    );
    for (const p of pieces) expect(p.name).toMatch(/^team-[0-9a-f]{8}$/);
    expect(new Set(pieces.map((p) => p.name)).size).toBe(pieces.length);
    // A piece within the limit is not cut and keeps its plain name.
    expect(splitByOwners(paths, all, { maxFiles: 7 }).map((p) => [p.name, p.directory])).toEqual([['team', null]]);
  });

  it("a cut piece's name comes from its owners and folder: a rerun with another file elsewhere keeps it", () => {
    const all = github(file('* @team'));
    const nameOf = (pieces: readonly Piece[], dir: string) => pieces.find((p) => p.directory === dir)?.name;
    const before = splitByOwners(['src/a/1', 'src/a/2', 'src/b/1', 'src/b/2'], all, { maxFiles: 2 });
    const after = splitByOwners(['src/a/1', 'src/a/2', 'src/b/1', 'src/b/2', 'src/c/1', 'src/c/2'], all, { maxFiles: 2 });
    expect(nameOf(before, 'src/a')).toBe(`team-${hash8('@team\0src/a')}`);
    expect(nameOf(after, 'src/a')).toBe(nameOf(before, 'src/a'));
    expect(nameOf(after, 'src/b')).toBe(nameOf(before, 'src/b'));
  });

  it('a folder with more files directly in it than maxFiles is cut in path order', () => {
    const all = github(file('* @team'));
    const paths = ['d/5', 'd/1', 'd/4', 'd/2', 'd/3'];
    expect(
      splitByOwners(paths, all, { maxFiles: 2 })
        .map((p) => p.files)
        .sort(),
    ).toEqual([['d/1', 'd/2'], ['d/3', 'd/4'], ['d/5']]);
  });

  it('maxFiles must be a whole number of at least 1', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => splitByOwners(['a'], undefined, { maxFiles: bad })).toThrow(UsageError);
  });

  it("a piece's owners sorted for its pull request: users and teams to request review from, e-mails for the body, roles", () => {
    expect(ownerKinds(['@alice', '@acme/web', 'bob@example.com', '@@maintainer', '@group/sub/team'])).toEqual({
      users: ['alice'],
      teams: ['acme/web', 'group/sub/team'],
      emails: ['bob@example.com'],
      roles: ['maintainer'],
    });
  });
});
