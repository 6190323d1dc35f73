// The commit plan as a table: a recipe's groups and commit message, a job and its changed files in,
// one planned commit per group out (group, files, message with trailers). A row per case; together
// they take every path through planCommits and groupMatcher.
import { describe, expect, it } from 'vitest';
import { expandJobs, recipeSchema, type RecipeInput } from '../../src/recipe/index.js';
import { planCommits } from '../../src/runner/commit-plan.js';
import type { FileState } from '../../src/workspace/types.js';

const STEPS: RecipeInput['steps'] = [{ replace: { old_string: 'a', new_string: 'b' } }];

/** What a planned commit is, in a row: its group, its files in order, its message. */
type Planned = readonly [group: string, files: readonly string[], message: string];

const trailers = (recipe: string, job: string, group: string) => `\n\nScion-Recipe: ${recipe}\nScion-Job: ${job}\nScion-Group: ${group}\n`;

const rows: readonly (readonly [
  name: string,
  recipe: Omit<RecipeInput, 'steps'>,
  job: string | null,
  changed: readonly string[],
  expected: readonly Planned[],
])[] = [
  ['no change: no commit', { name: 'r' }, null, [], []],
  [
    'no groups: one commit of every file, sorted, as group rest, default message',
    { name: 'r' },
    null,
    ['z.ts', 'a.ts', 'm/b.ts'],
    [['rest', ['a.ts', 'm/b.ts', 'z.ts'], `scion: r${trailers('r', 'r', 'rest')}`]],
  ],
  [
    "no groups, a description: the description is the message's subject",
    { name: 'r', description: 'Rename the logger' },
    null,
    ['a.ts'],
    [['rest', ['a.ts'], `Rename the logger${trailers('r', 'r', 'rest')}`]],
  ],
  [
    "the recipe's commit message, every placeholder filled, trailing blanks trimmed",
    { name: 'r', description: 'd', commit: { message: '{{recipe}}/{{job}}/{{group}}: {{description}} ({{count}} files)  \n' } },
    null,
    ['a.ts', 'b.ts'],
    [['rest', ['a.ts', 'b.ts'], `r/r/rest: d (2 files)${trailers('r', 'r', 'rest')}`]],
  ],
  [
    "groups: in the recipe's order (not the paths'), files in no group last as rest, default message names the group",
    {
      name: 'r',
      groups: [
        { name: 'tests', include: ['test/**'] },
        { name: 'docs', include: ['**/*.md'] },
      ],
    },
    null,
    ['src/a.ts', 'README.md', 'test/a.test.ts', 'test/notes.md'],
    [
      ['tests', ['test/a.test.ts', 'test/notes.md'], `scion: r (tests)${trailers('r', 'r', 'tests')}`],
      ['docs', ['README.md'], `scion: r (docs)${trailers('r', 'r', 'docs')}`],
      ['rest', ['src/a.ts'], `scion: r (rest)${trailers('r', 'r', 'rest')}`],
    ],
  ],
  [
    "a group's exclude leaves a file to the next group that matches it",
    {
      name: 'r',
      groups: [
        { name: 'tests', include: ['test/**'], exclude: ['**/*.md'] },
        { name: 'docs', include: ['**/*.md'] },
      ],
    },
    null,
    ['test/a.test.ts', 'test/notes.md'],
    [
      ['tests', ['test/a.test.ts'], `scion: r (tests)${trailers('r', 'r', 'tests')}`],
      ['docs', ['test/notes.md'], `scion: r (docs)${trailers('r', 'r', 'docs')}`],
    ],
  ],
  [
    "a group's own message beside the recipe's; a group without files makes no commit",
    {
      name: 'r',
      commit: { message: 'all: {{group}}' },
      groups: [
        { name: 'empty', include: ['nothing/**'] },
        { name: 'docs', include: ['*.md'], message: 'docs: {{count}} file in {{job}}' },
      ],
    },
    null,
    ['a.md', 'b.ts'],
    [
      ['docs', ['a.md'], `docs: 1 file in r${trailers('r', 'r', 'docs')}`],
      ['rest', ['b.ts'], `all: rest${trailers('r', 'r', 'rest')}`],
    ],
  ],
  [
    'a named job: its name in the message and the trailers',
    { name: 'r', commit: { message: 'bump {{job}}' }, jobs: [{ name: 'web', files: { include: ['web/**'] } }] },
    'web',
    ['web/a.ts'],
    [['rest', ['web/a.ts'], `bump web${trailers('r', 'web', 'rest')}`]],
  ],
];

describe('planCommits', () => {
  it.each(rows)('%s', (_name, input, jobName, changed, expected) => {
    const recipe = recipeSchema.parse({ ...input, steps: STEPS });
    const job = expandJobs(recipe, []).find((j) => jobName === null || j.name === jobName)!;
    const state: FileState = { bytes: new TextEncoder().encode('x\n'), mode: '100644' };
    const changes = new Map(changed.map((p) => [p, state] as const));
    const plan = planCommits(recipe, job, changes);
    expect(plan.map((c): Planned => [c.group, c.files, c.message])).toEqual(expected);
    // Each commit carries exactly its files' changes.
    for (const c of plan) expect([...c.changes.keys()]).toEqual(c.files);
  });

  it('a deleted file is planned as a deletion (null), in its group', () => {
    const recipe = recipeSchema.parse({ name: 'r', steps: STEPS, groups: [{ name: 'docs', include: ['*.md'] }] });
    const kept: FileState = { bytes: new Uint8Array([1]), mode: '100755' };
    const plan = planCommits(
      recipe,
      expandJobs(recipe, [])[0]!,
      new Map([
        ['gone.md', null],
        ['run.sh', kept],
      ]),
    );
    expect(plan.map((c) => [c.group, [...c.changes]])).toEqual([
      ['docs', [['gone.md', null]]],
      ['rest', [['run.sh', kept]]],
    ]);
  });
});
