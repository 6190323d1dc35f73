// A job's pull-request settings as a table: the recipes' `pr` blocks and what the command line adds
// (--draft, --label) in, the settings of one job out. A row per case; together they take every path
// through settingsFor.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PR_SETTINGS, settingsFor, type PrSettings } from '../../src/publish/describe.js';
import { job } from '../report/sample.js';

const BLOCK: PrSettings = {
  title: 'Rename {{job}}',
  draft: false,
  labels: ['codemod', 'logging'],
  reviewers: ['octocat'],
  assignees: ['hubot'],
  autoMerge: 'squash',
  closeWhenEmpty: false,
};

type Recipes = Parameters<typeof settingsFor>[0];
type Extra = Parameters<typeof settingsFor>[1];

const rows: readonly (readonly [name: string, recipes: Recipes, extra: Extra, recipe: string, expected: PrSettings])[] = [
  ["the job's recipe has a pr block, nothing added: the block", [{ name: 'r', pr: BLOCK }], undefined, 'r', BLOCK],
  ["the job's recipe has no pr block: the defaults", [{ name: 'r' }], undefined, 'r', DEFAULT_PR_SETTINGS],
  ["the job's recipe is not among them: the defaults", [{ name: 'other', pr: BLOCK }], {}, 'r', DEFAULT_PR_SETTINGS],
  [
    'the recipe of the job, not another',
    [
      { name: 'other', pr: { ...BLOCK, title: 'x' } },
      { name: 'r', pr: BLOCK },
    ],
    {},
    'r',
    BLOCK,
  ],
  ['--draft makes it a draft', [{ name: 'r', pr: BLOCK }], { draft: true }, 'r', { ...BLOCK, draft: true }],
  ['--draft absent keeps a draft block a draft', [{ name: 'r', pr: { ...BLOCK, draft: true } }], { draft: false }, 'r', { ...BLOCK, draft: true }],
  ['--draft on the defaults', [], { draft: true }, 'r', { ...DEFAULT_PR_SETTINGS, draft: true }],
  [
    "--label adds to the block's labels, each once, the block's first",
    [{ name: 'r', pr: BLOCK }],
    { labels: ['logging', 'bot', 'bot'] },
    'r',
    { ...BLOCK, labels: ['codemod', 'logging', 'bot'] },
  ],
  ['--label on the defaults', [{ name: 'r' }], { labels: ['bot'] }, 'r', { ...DEFAULT_PR_SETTINGS, labels: ['bot'] }],
];

describe('settingsFor', () => {
  it.each(rows)('%s', (_name, recipes, extra, recipe, expected) => {
    expect(settingsFor(recipes, extra)(job({ name: 'j', recipe }))).toEqual(expected);
  });

  it('changes neither the block nor the defaults it reads', () => {
    const block = { ...BLOCK, labels: [...BLOCK.labels] };
    settingsFor([{ name: 'r', pr: block }], { draft: true, labels: ['bot'] })(job({ name: 'j', recipe: 'r' }));
    settingsFor([], { draft: true, labels: ['bot'] })(job({ name: 'j', recipe: 'r' }));
    expect(block).toEqual(BLOCK);
    expect(DEFAULT_PR_SETTINGS).toEqual({ draft: false, labels: [], reviewers: [], assignees: [], closeWhenEmpty: true });
  });
});
