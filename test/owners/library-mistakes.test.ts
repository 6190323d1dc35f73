// The cases the three most used npm CODEOWNERS libraries get wrong (`codeowners`, `codeowners-utils`,
// `@snyk/github-codeowners`), each with what the host does instead. Where a library goes wrong is taken
// from its source (all three match through the `ignore` package, i.e. gitignore's rules, case-insensitive
// by default) and from its issue tracker; the expected answers come from the hosts' documentation.
import { describe, expect, it } from 'vitest';
import { codeownersFor } from '../../src/owners/index.js';
import { GITHUB, GITLAB } from './docs.js';
import { file, github, gitlab, ownersOf } from './helpers.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('GitHub cases the npm libraries get wrong', () => {
  // `ignore()` folds case unless told not to (kaelzhang/node-ignore#151: "The actual github CODEOWNERS check seems
  // to be case sensitive, but unfortunately using ignore fails in this case"); the snyk library builds its regex with 'i'.
  it(`case-insensitive matching (all three) — ${GITHUB.caseSensitive}`, () => {
    const co = github(file('* @all', 'readme.md @docs', '/API/ @api'));
    expect(ownersOf(co, 'README.md')).toEqual(['@all']);
    expect(ownersOf(co, 'api/v1.ts')).toEqual(['@all']);
  });

  // beaugunderson/codeowners#15 and #51 ("`/*` Pattern Matches Recursively"), hmarr/codeowners#2: gitignore's
  // `docs/*` matches the folder docs/build-app and so all of it. codeowners-utils has the same gitignore reading.
  it(`\`docs/*\` matching nested files (codeowners, codeowners-utils) — ${GITHUB.exampleDocsStar}`, () => {
    const co = github(file('* @all', 'docs/* @docs', '/packages/* @pkg'));
    expect(ownersOf(co, 'docs/getting-started.md')).toEqual(['@docs']);
    expect(ownersOf(co, 'docs/build-app/troubleshooting.md')).toEqual(['@all']);
    expect(ownersOf(co, 'packages/other/src/file.js')).toEqual(['@all']);
  });

  it(`\`[ ]\` ranges honoured (all three hand the pattern to \`ignore\`) — ${GITHUB.exceptionRange}`, () => {
    const co = github(file('* @all', '*.[jt]s @scripts'));
    expect(ownersOf(co, 'index.js')).toEqual(['@all']);
    expect(co.skipped.map((s) => s.line)).toEqual([2]);
  });

  it(`\`\\#\` read as an escaped \`#\` (\`ignore\` does; codeowners-utils cuts the line at the \`#\`) — ${GITHUB.exceptionHash}`, () => {
    const co = github(file('* @all', '\\#generated @gen'));
    expect(ownersOf(co, '#generated')).toEqual(['@all']);
  });

  // codeowners-utils searches .github, docs, then the root; codeowners looks in .github, .gitlab and docs before the root.
  it(`the order of locations (codeowners-utils, codeowners) — ${GITHUB.location}`, async () => {
    const tree: Record<string, string> = { CODEOWNERS: '* @root\n', 'docs/CODEOWNERS': '* @docs\n', '.gitlab/CODEOWNERS': '* @gitlab\n' };
    const co = await codeownersFor((p) => (p in tree ? bytes(tree[p] as string) : undefined), { dialect: 'github' });
    expect(co?.file).toBe('CODEOWNERS');
  });

  // codeowners splits the line on whitespace and keeps `#This`, `is`, ... as owners; the snyk library throws
  // ("is not a valid owner name") and loads nothing.
  it(`an inline comment read as owners (codeowners, @snyk/github-codeowners) — ${GITHUB.exampleInlineComment}`, () => {
    const co = github(file('*.js    @js-owner #This is an inline comment.'));
    expect(ownersOf(co, 'a.js')).toEqual(['@js-owner']);
  });

  // codeowners and codeowners-utils keep any word as an owner; the snyk library refuses the whole file.
  it(`an owner that is not one (all three, two ways) — ${GITHUB.invalidLine}`, () => {
    const co = github(file('* @all', '/src/ bob', '/docs/ @docs'));
    expect(ownersOf(co, 'src/a.ts')).toEqual(['@all']);
    expect(ownersOf(co, 'docs/a.md')).toEqual(['@docs']);
    expect(co.skipped.map((s) => s.line)).toEqual([2]);
  });

  // None of the three says which lines it did not read.
  it('skipped lines are reported with the reason, where GitHub skips them silently', () => {
    const co = github(file('!*.md', '*.[ch] @c', '\\#x @x', '* alice'));
    expect(co.skipped.map((s) => [s.line, s.text])).toEqual([
      [1, '!*.md'],
      [2, '*.[ch] @c'],
      [3, '\\#x @x'],
      [4, '* alice'],
    ]);
    for (const s of co.skipped) expect(s.reason.length).toBeGreaterThan(20);
  });
});

describe('GitLab cases the npm libraries get wrong (none of them reads GitLab sections)', () => {
  // With no section support, `[Docs]` is a gitignore pattern: a character class owning files named D, o, c or s.
  it(`a section header read as a pattern — ${GITLAB.sectionsSeparate}`, () => {
    const co = gitlab(file('[Docs] @docs', '*.md'));
    expect(ownersOf(co, 'D')).toEqual([]);
    expect(ownersOf(co, 'guide.md')).toEqual(['@docs']);
  });

  it(`one answer for the whole file instead of one per section — ${GITLAB.regularAndSections}`, () => {
    const co = gitlab(file('* @general', '[Docs]', '*.md @docs', '[Legal]', 'LICENSE.md @legal'));
    expect(ownersOf(co, 'LICENSE.md')).toEqual(['@general', '@docs', '@legal']);
  });

  // beaugunderson/codeowners#37 "Support Default Owners".
  it(`default owners after a header (codeowners#37) — ${GITLAB.defaultOwners}`, () => {
    const co = gitlab(file('[Database] @database-team', 'model/db/', 'config/db/setup.md @docs-team'));
    expect(ownersOf(co, 'model/db/schema.rb')).toEqual(['@database-team']);
    expect(ownersOf(co, 'config/db/setup.md')).toEqual(['@docs-team']);
  });

  it(`\`!pattern\` read as a gitignore re-inclusion, or ignored — ${GITLAB.exclusionFinal}`, () => {
    const co = gitlab(file('* @default-owner', '!*.rb', '/special/*.rb @ruby-owner'));
    expect(ownersOf(co, 'special/a.rb')).toEqual([]);
  });

  it(`section names compared as written — ${GITLAB.sectionNames}`, () => {
    const co = gitlab(file('[Docs]', '*.md @a', '[DOCS]', 'README.md @b'));
    expect(co.sections.map((s) => s.name)).toEqual(['Docs']);
    // One section: README.md takes only the section's last match.
    expect(ownersOf(co, 'README.md')).toEqual(['@b']);
  });

  it(`\`[Name][N]\` and \`^[Name]\` read as patterns — ${GITLAB.approvals}`, () => {
    const co = gitlab(file('[Docs][2] @docs', '^[Go] @go', '*.go'));
    expect(co.sections.map((s) => [s.name, s.approvals, s.optional])).toEqual([
      ['Docs', 2, false],
      ['Go', 1, true],
    ]);
    expect(ownersOf(co, 'main.go')).toEqual(['@go']);
  });

  it(`a relative path with a slash anchored at the root (gitignore's rule) — ${GITLAB.relative}`, () => {
    const co = gitlab(file('internal/README.md @internal'));
    expect(ownersOf(co, 'docs/api/internal/README.md')).toEqual(['@internal']);
  });

  // The snyk library's owner check (`^@[a-zA-Z0-9_\-/]*$`) rejects `@@maintainer` and loads nothing.
  it(`role owners refused (@snyk/github-codeowners) — ${GITLAB.roles}`, () => {
    const co = gitlab(file('/config/ @@maintainer'));
    expect(ownersOf(co, 'config/app.yml')).toEqual(['@@maintainer']);
  });

  it(`GitLab's order of locations, which none of them follows — ${GITLAB.location}`, async () => {
    const tree: Record<string, string> = { '.github/CODEOWNERS': '* @gh\n', 'docs/CODEOWNERS': '* @docs\n', '.gitlab/CODEOWNERS': '* @gl\n' };
    const co = await codeownersFor((p) => (p in tree ? bytes(tree[p] as string) : undefined), { dialect: 'gitlab' });
    expect(co?.file).toBe('docs/CODEOWNERS');
  });
});
