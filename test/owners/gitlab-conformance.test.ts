// GitLab's reading of CODEOWNERS, case by case against the sentences of its CODEOWNERS documentation
// (syntax reference, advanced configuration, and where GitLab looks for the file).
import { describe, expect, it } from 'vitest';
import { fnmatchTest } from '../../src/owners/gitlab-pattern.js';
import { codeownersFor, ownersReport } from '../../src/owners/index.js';
import { GITLAB } from './docs.js';
import { file, gitlab, ownersOf } from './helpers.js';

describe('GitLab: sections', () => {
  // The reference's own example.
  const readme = gitlab(
    file('* @admin', '', '[README Owners]', 'README.md @user1 @user2', 'internal/README.md @user4', '', '[README other owners]', 'README.md @user3'),
  );

  it(`${GITLAB.sectionsSeparate} ${GITLAB.unnamedSection}`, () => {
    expect(ownersOf(readme, 'README.md')).toEqual(['@admin', '@user1', '@user2', '@user3']);
    expect(readme.ownerOf('README.md').rules).toEqual([
      { line: 1, pattern: '*', section: null },
      { line: 4, pattern: 'README.md', section: 'README Owners' },
      { line: 8, pattern: 'README.md', section: 'README other owners' },
    ]);
  });

  it(`${GITLAB.onePerSection} ${GITLAB.readmeExample}`, () => {
    expect(ownersOf(readme, 'internal/README.md')).toEqual(['@admin', '@user4', '@user3']);
    expect(readme.ownerOf('internal/README.md').rules.map((r) => r.line)).toEqual([1, 5, 8]);
  });

  it(GITLAB.regularAndSections, () => {
    const co = gitlab(
      file(
        '* @general-approvers',
        '',
        '[Documentation] @docs-team',
        'docs/',
        'README.md',
        '*.txt',
        '',
        '[Database] @database-team',
        'model/db/',
        'config/db/database-setup.md @docs-team',
      ),
    );
    expect(ownersOf(co, 'model/db/CHANGELOG.txt')).toEqual(['@general-approvers', '@docs-team', '@database-team']);
    expect(ownersOf(co, 'config/db/database-setup.md')).toEqual(['@general-approvers', '@docs-team']);
    expect(ownersOf(co, 'src/app.rb')).toEqual(['@general-approvers']);
  });

  it(GITLAB.defaultOwners, () => {
    const co = gitlab(
      file('[Documentation] @docs-team', 'docs/', 'README.md', '', '[Database] @database-team @agarcia', 'model/db/', 'config/db/database-setup.md @docs-team'),
    );
    expect(ownersOf(co, 'docs/guide.md')).toEqual(['@docs-team']);
    expect(ownersOf(co, 'README.md')).toEqual(['@docs-team']);
    expect(ownersOf(co, 'model/db/schema.rb')).toEqual(['@database-team', '@agarcia']);
    expect(ownersOf(co, 'config/db/database-setup.md')).toEqual(['@docs-team']);
    expect(co.warnings).toEqual([]);
  });

  it(`${GITLAB.defaultsAtEnd}; ${GITLAB.approvals}; ${GITLAB.optional}`, () => {
    const co = gitlab(file('[Documentation][2] @docs-team', 'docs/', '', '^[Database] @database-team', 'model/db/', '', '[Ruby][3]', '*.rb @dev'));
    expect(co.sections).toEqual([
      { name: 'Documentation', lines: [1], optional: false, approvals: 2 },
      { name: 'Database', lines: [4], optional: true, approvals: 1 },
      { name: 'Ruby', lines: [7], optional: false, approvals: 3 },
    ]);
    expect(ownersOf(co, 'docs/a.md')).toEqual(['@docs-team']);
    expect(ownersOf(co, 'model/db/x.rb')).toEqual(['@database-team', '@dev']);
  });

  it(GITLAB.minimumApprovals, () => {
    const co = gitlab(file('[Docs][0]', '*.md @docs'));
    expect(co.sections[0]).toMatchObject({ name: 'Docs', approvals: 1 });
  });

  it(`${GITLAB.sectionNames} ${GITLAB.duplicateSections}`, () => {
    const co = gitlab(
      file('[Documentation]', 'ee/docs/    @docs', 'docs/       @docs', '', '[Database]', 'README.md  @database', 'model/db/   @database') +
        file('', '[DOCUMENTATION]', 'README.md  @docs'),
    );
    expect(co.sections.map((s) => s.name)).toEqual(['Documentation', 'Database']);
    expect(co.sections[0]?.lines).toEqual([1, 9]);
    expect(co.rules.filter((r) => r.section === 'Documentation').map((r) => r.line)).toEqual([2, 3, 10]);
    expect(ownersOf(co, 'README.md')).toEqual(['@docs', '@database']);
    expect(co.ownerOf('README.md').rules).toEqual([
      { line: 10, pattern: 'README.md', section: 'Documentation' },
      { line: 6, pattern: 'README.md', section: 'Database' },
    ]);
  });

  it(GITLAB.optionalConflict, () => {
    const co = gitlab(file('[Documentation]', '*.go @user', '^[Documentation]', '*.rb @user', '^[Go]', '*.go @go'));
    expect(co.sections.map((s) => [s.name, s.optional])).toEqual([
      ['Documentation', false],
      ['Go', true],
    ]);
  });

  it(`${GITLAB.duplicateEntry} (at the first entry's place among the section's rules)`, () => {
    const co = gitlab(file('*.md @a', 'README.md @b', '*.md @c'));
    // The repeated `*.md` takes line 3's owners but keeps line 1's place, so README.md's later rule wins.
    expect(ownersOf(co, 'README.md')).toEqual(['@b']);
    expect(ownersOf(co, 'guide.md')).toEqual(['@c']);
    expect(co.ownerOf('guide.md').rules).toEqual([{ line: 3, pattern: '*.md', section: null }]);
  });

  it(GITLAB.lastPattern, () => {
    const co = gitlab(file('*.md @doc-team', 'terms.md @legal-team'));
    expect(ownersOf(co, 'terms.md')).toEqual(['@legal-team']);
  });

  it(GITLAB.unparsableSection, () => {
    const after = gitlab(file('* @group', '', '[Section name', 'docs/ @docs_group'));
    expect(after.sections.map((s) => s.name)).toEqual([null]);
    expect(after.rules.map((r) => [r.pattern, r.owners])).toEqual([
      ['*', ['@group']],
      ['[Section', []],
      ['docs/', ['@docs_group']],
    ]);
    expect(after.warnings.map((w) => w.line)).toEqual([3]);
    expect(after.warnings[0]?.reason).toMatch(/closing `\]`/);

    const named = gitlab(file('[Docs]', 'docs/**/* @group', '', '[Section name', 'docs/ @docs_group'));
    // `docs/` is rewritten to `/**/docs/**/*`, the same as `docs/**/*`: one entry of the section, line 5's.
    expect(named.rules.map((r) => [r.section, r.line, r.pattern])).toEqual([
      ['Docs', 4, '[Section'],
      ['Docs', 5, 'docs/'],
    ]);
    expect(ownersOf(named, 'docs/a.md')).toEqual(['@docs_group']);
  });
});

describe('GitLab: path matching', () => {
  it(`${GITLAB.fnmatch}: ${GITLAB.pathname}`, () => {
    const co = gitlab(file('/docs/* @root-docs'));
    expect(ownersOf(co, 'docs/a.md')).toEqual(['@root-docs']);
    expect(ownersOf(co, 'docs/api/a.md')).toEqual([]);
  });

  it(GITLAB.dotmatch, () => {
    const co = gitlab(file('* @all', '/config/* @config'));
    expect(ownersOf(co, '.gitignore')).toEqual(['@all']);
    expect(ownersOf(co, '.gitlab/ci.yml')).toEqual(['@all']);
    expect(ownersOf(co, 'config/.env')).toEqual(['@config']);
  });

  it(GITLAB.globstar, () => {
    const co = gitlab(file('**/*.rb @ruby', '/docs/**/index.md @index'));
    expect(ownersOf(co, 'config/database.rb')).toEqual(['@ruby']);
    expect(ownersOf(co, 'app/controllers/users/stars_controller.rb')).toEqual(['@ruby']);
    for (const p of ['docs/index.md', 'docs/api/index.md', 'docs/api/graphql/index.md']) expect(ownersOf(co, p), p).toEqual(['@index']);
  });

  it('`**` spans folders only as a whole `**/` segment (FNM_PATHNAME): `docs/**` owns what is directly in docs, unlike gitignore', () => {
    const co = gitlab(file('/docs/** @docs'));
    expect(ownersOf(co, 'docs/a.md')).toEqual(['@docs']);
    expect(ownersOf(co, 'docs/api/a.md')).toEqual([]);
  });

  it(GITLAB.absolute, () => {
    const co = gitlab(file('/README.md @root', '/docs/README.md @docs'));
    expect(ownersOf(co, 'README.md')).toEqual(['@root']);
    expect(ownersOf(co, 'internal/README.md')).toEqual([]);
    expect(ownersOf(co, 'docs/README.md')).toEqual(['@docs']);
  });

  it(GITLAB.relative, () => {
    const co = gitlab(file('README.md @username', 'internal/README.md @internal'));
    expect(ownersOf(co, 'README.md')).toEqual(['@username']);
    expect(ownersOf(co, 'app/lib/README.md')).toEqual(['@username']);
    for (const p of ['internal/README.md', 'docs/internal/README.md', 'docs/api/internal/README.md']) {
      expect(ownersOf(co, p), p).toEqual(['@internal']);
    }
  });

  it(GITLAB.directory, () => {
    const co = gitlab(file('/docs/ @docs'));
    expect(ownersOf(co, 'docs/a.md')).toEqual(['@docs']);
    expect(ownersOf(co, 'docs/x/y/z.md')).toEqual(['@docs']);
    expect(ownersOf(co, 'docs')).toEqual([]);
    expect(ownersOf(co, 'src/docs/a.md')).toEqual([]);
  });

  it("a path without a trailing `/` and without wildcards names a file, not a folder's contents (fnmatch matches the whole path)", () => {
    const co = gitlab(file('/docs @docs'));
    expect(ownersOf(co, 'docs')).toEqual(['@docs']);
    expect(ownersOf(co, 'docs/a.md')).toEqual([]);
  });

  it(GITLAB.wildcard, () => {
    const co = gitlab(file('/docs/*.md @md', '/docs/index.* @index', '/docs/*spec* @spec', '/docs/*/README.md @readme'));
    expect(ownersOf(co, 'docs/guide.md')).toEqual(['@md']);
    expect(ownersOf(co, 'docs/index.html')).toEqual(['@index']);
    expect(ownersOf(co, 'docs/runtime.spec')).toEqual(['@spec']);
    expect(ownersOf(co, 'docs/qa_specs.rb')).toEqual(['@spec']);
    expect(ownersOf(co, 'docs/api/README.md')).toEqual(['@readme']);
    expect(ownersOf(co, 'docs/api/v1/README.md')).toEqual([]);
  });

  it('matching is case-sensitive: GitLab names no case-folding flag for fnmatch (only section names are case-insensitive)', () => {
    const co = gitlab(file('README.md @docs'));
    expect(ownersOf(co, 'README.md')).toEqual(['@docs']);
    expect(ownersOf(co, 'readme.md')).toEqual([]);
  });

  it('`[ ]` sets work, as in fnmatch: ranges, negation, and an unclosed `[` that never matches', () => {
    const co = gitlab(file('/src/*.[ch] @c', '/v[!0-9].txt @letters', '/odd[name @never'));
    expect(ownersOf(co, 'src/main.c')).toEqual(['@c']);
    expect(ownersOf(co, 'src/main.h')).toEqual(['@c']);
    expect(ownersOf(co, 'src/main.o')).toEqual([]);
    expect(ownersOf(co, 'vx.txt')).toEqual(['@letters']);
    expect(ownersOf(co, 'v1.txt')).toEqual([]);
    expect(ownersOf(co, 'odd[name')).toEqual([]);
  });

  it(GITLAB.escapedSpaces, () => {
    const co = gitlab(file('path\\ with\\ spaces/*.md @owner', 'folder with spaces/*.md @group'));
    expect(ownersOf(co, 'path with spaces/a.md')).toEqual(['@owner']);
    // Without escaping, the pattern is `folder` and the rest of the line its owners.
    expect(co.rules[1]).toMatchObject({ pattern: 'folder', owners: ['@group'] });
  });

  it('a `\\#` at the start is a pattern beginning with `#`, not a comment', () => {
    const co = gitlab(file('\\#notes @hash', '# @comment'));
    expect(ownersOf(co, '#notes')).toEqual(['@hash']);
    expect(co.rules).toHaveLength(1);
  });
});

describe(`GitLab's matcher is Ruby's File.fnmatch (${GITLAB.fnmatch})`, () => {
  // Ruby's documented File.fnmatch examples, with the answers they give under FNM_PATHNAME | FNM_DOTMATCH.
  const cases: [string, string, boolean][] = [
    ['cat', 'cat', true],
    ['cat', 'category', false],
    ['c{at,ub}s', 'cats', false],
    ['c?t', 'cat', true],
    ['c??t', 'cat', false],
    ['c*', 'cats', true],
    ['c*t', 'c/a/b/t', false],
    ['ca[a-z]', 'cat', true],
    ['ca[^t]', 'cat', false],
    ['cat', 'CAT', false],
    ['?', '/', false],
    ['*', '/', false],
    ['[/]', '/', false],
    ['\\?', '?', true],
    ['\\a', 'a', true],
    ['*', '.profile', true],
    ['**/foo', 'a/b/c/foo', true],
    ['**/foo', '/a/b/c/foo', true],
    ['**/foo', 'c:/a/b/c/foo', true],
    ['**/foo', 'a/.b/c/foo', true],
    ['*/*', 'dave/.profile', true],
  ];
  for (const [pattern, path, expected] of cases) {
    it(`File.fnmatch('${pattern}', '${path}') is ${expected}`, () => {
      expect(fnmatchTest(pattern)(path)).toBe(expected);
    });
  }
});

describe('GitLab: exclusions', () => {
  const co = gitlab(file('* @username', '', '!pom.xml', '', '[Ruby]', '*.rb @ruby-team', '', '!/config/**/*.rb', '/config/routes.rb @ops'));

  it(GITLAB.exclusions, () => {
    expect(ownersOf(co, 'pom.xml')).toEqual([]);
    expect(co.ownerOf('pom.xml').rules).toEqual([{ line: 3, pattern: '!pom.xml', section: null }]);
    expect(ownersOf(co, 'app/models/user.rb')).toEqual(['@username', '@ruby-team']);
    // The Ruby section's exclusion leaves the unnamed section's owner in place.
    expect(ownersOf(co, 'config/initializers/a.rb')).toEqual(['@username']);
  });

  it(`${GITLAB.exclusionOrder} ${GITLAB.exclusionFinal}`, () => {
    expect(ownersOf(co, 'config/routes.rb')).toEqual(['@username']);
    const special = gitlab(file('* @default-owner', '!*.rb', '/special/*.rb @ruby-owner'));
    expect(ownersOf(special, 'special/a.rb')).toEqual([]);
    expect(ownersOf(special, 'special/a.py')).toEqual(['@default-owner']);
  });

  it('an exclusion in one section leaves other sections alone ("If you need different exclusions for different owners, use multiple sections")', () => {
    const two = gitlab(file('[Ruby]', '*.rb @ruby-team', '!/config/**/*.rb', '', '[Config]', '/config/ @ops-team'));
    expect(ownersOf(two, 'config/a/b.rb')).toEqual(['@ops-team']);
  });
});

describe('GitLab: owners', () => {
  it(`${GITLAB.roles} ${GITLAB.pluralRoles}`, () => {
    const co = gitlab(file('file.md @@developer @@maintainer', '/config/ @@Maintainers', 'x.md @@guest @alice'));
    expect(ownersOf(co, 'file.md')).toEqual(['@@developer', '@@maintainer']);
    expect(ownersOf(co, 'config/a.yml')).toEqual(['@@Maintainers']);
    expect(ownersOf(co, 'x.md')).toEqual(['@alice']);
    expect(co.warnings.map((w) => w.line)).toEqual([3]);
  });

  it(GITLAB.groups, () => {
    const co = gitlab(file('README @group @group/with-nested/subgroup', 'LICENSE @legal janedoe@gitlab.com'));
    expect(ownersOf(co, 'README')).toEqual(['@group', '@group/with-nested/subgroup']);
    expect(ownersOf(co, 'LICENSE')).toEqual(['@legal', 'janedoe@gitlab.com']);
  });

  it(GITLAB.malformedOwners, () => {
    const co = gitlab(file('/path/* @group user_without_at_symbol @user_with_at_symbol'));
    expect(ownersOf(co, 'path/a')).toEqual(['@group', '@user_with_at_symbol']);
    expect(co.skipped).toEqual([]);
    expect(co.warnings).toHaveLength(1);
    expect(co.warnings[0]?.reason).toContain("'user_without_at_symbol'");
  });

  it(GITLAB.zeroOwners, () => {
    const co = gitlab(file('* @all', '/generated/', '/vendor/ not-an-owner'));
    expect(ownersOf(co, 'generated/a.js')).toEqual([]);
    expect(ownersOf(co, 'vendor/lib.js')).toEqual([]);
    expect(ownersOf(co, 'src/a.js')).toEqual(['@all']);
    expect(co.warnings.map((w) => w.line)).toEqual([2, 3]);
  });

  it(GITLAB.comments, () => {
    const co = gitlab(file('# @nobody', '/docs/**/*.md @markdown-docs  # Match specific file types, ask @alice'));
    expect(co.rules).toHaveLength(1);
    expect(ownersOf(co, 'docs/x/a.md')).toEqual(['@markdown-docs', '@alice']);
  });

  it("owner names compare case-insensitively when a path's owners are merged across sections", () => {
    const co = gitlab(file('* @Alice', '[Docs]', '*.md @alice @bob'));
    expect(ownersOf(co, 'a.md')).toEqual(['@Alice', '@bob']);
  });
});

describe('GitLab: which file, and the report', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);

  it(`${GITLAB.location}: 1. ./CODEOWNERS 2. ./docs/CODEOWNERS 3. ./.gitlab/CODEOWNERS`, async () => {
    const tree: Record<string, string> = {
      '.github/CODEOWNERS': '* @github-only\n',
      CODEOWNERS: '* @root\n',
      'docs/CODEOWNERS': '* @docs\n',
      '.gitlab/CODEOWNERS': '* @gitlab-folder\n',
    };
    const read = (p: string) => (p in tree ? bytes(tree[p] as string) : null);
    const order: string[] = [];
    for (const drop of ['CODEOWNERS', 'docs/CODEOWNERS', '.gitlab/CODEOWNERS']) {
      const co = await codeownersFor(read, { dialect: 'gitlab' });
      order.push(`${co?.file} ${ownersOf(co!, 'x').join(' ')}`);
      delete tree[drop];
    }
    expect(order).toEqual(['CODEOWNERS @root', 'docs/CODEOWNERS @docs', '.gitlab/CODEOWNERS @gitlab-folder']);
    expect(await codeownersFor(read, { dialect: 'gitlab' })).toBeUndefined();
  });

  it('the report lists each path with the rule of every section that decided, then every line not read as written', () => {
    const co = gitlab(file('* @admin', '[Docs]', '*.md @docs oops'));
    expect(JSON.parse(JSON.stringify(ownersReport(co, ['a.md', 'b.ts'])))).toEqual({
      file: 'CODEOWNERS',
      paths: [
        {
          path: 'a.md',
          owners: ['@admin', '@docs'],
          rules: [
            { line: 1, pattern: '*', section: null },
            { line: 3, pattern: '*.md', section: 'Docs' },
          ],
        },
        { path: 'b.ts', owners: ['@admin'], rules: [{ line: 1, pattern: '*', section: null }] },
      ],
      skipped: [{ line: 3, text: '*.md @docs oops', reason: "GitLab ignores 'oops': not a user, group, role or e-mail address" }],
    });
  });
});
