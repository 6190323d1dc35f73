// The rerun rule as a table: a branch's state, the base, the planned commits and --force in, the
// decision out. A row per case; together they take every path through decideBranch.
import { describe, expect, it } from 'vitest';
import { decideBranch, type BranchDecision, type BranchState, type ChainCommit } from '../../src/branch/rerun.js';

const BASE = 'b'.repeat(40);
const OTHER_BASE = 'c'.repeat(40);
const USER_HEAD = 'f'.repeat(40);

/** A chain of scion commits on `base`: sha i+1 over sha i, each with the tree and message given. */
function chain(base: string, ...commits: readonly (readonly [tree: string, message: string])[]): ChainCommit[] {
  return commits.map(([tree, message], i) => ({ sha: String(i + 1).repeat(40), tree, message, parent: i === 0 ? base : String(i).repeat(40) }));
}

const TWO = chain(BASE, ['t1', 'm1'], ['t2', 'm2']);
const TOP = TWO[1]!.sha;
const PLANNED = [
  { tree: 't1', message: 'm1' },
  { tree: 't2', message: 'm2' },
];

const rows: readonly (readonly [
  name: string,
  state: BranchState,
  base: string,
  planned: readonly { tree: string; message: string }[],
  force: boolean,
  expected: BranchDecision,
])[] = [
  ['no branch yet: write it, expecting none', { head: null, chain: [] }, BASE, PLANNED, false, { action: 'write', expectedOld: null }],
  ['no branch yet, --force: the same', { head: null, chain: [] }, BASE, PLANNED, true, { action: 'write', expectedOld: null }],
  [
    'ours, the same commits on the same base: unchanged',
    { head: TOP, chain: TWO, holdsOurs: true },
    BASE,
    PLANNED,
    false,
    { action: 'unchanged', head: TOP, chain: TWO },
  ],
  [
    'ours, the same commits, --force: still unchanged',
    { head: TOP, chain: TWO, holdsOurs: true },
    BASE,
    PLANNED,
    true,
    { action: 'unchanged', head: TOP, chain: TWO },
  ],
  ['ours, on another base: rewritten', { head: TOP, chain: TWO, holdsOurs: true }, OTHER_BASE, PLANNED, false, { action: 'write', expectedOld: TOP }],
  [
    'ours, one commit fewer planned: rewritten',
    { head: TOP, chain: TWO, holdsOurs: true },
    BASE,
    PLANNED.slice(0, 1),
    false,
    { action: 'write', expectedOld: TOP },
  ],
  ['ours, nothing planned: rewritten', { head: TOP, chain: TWO, holdsOurs: true }, BASE, [], false, { action: 'write', expectedOld: TOP }],
  [
    'ours, one tree differs: rewritten',
    { head: TOP, chain: TWO, holdsOurs: true },
    BASE,
    [PLANNED[0]!, { tree: 't2-new', message: 'm2' }],
    false,
    { action: 'write', expectedOld: TOP },
  ],
  [
    'ours, one message differs: rewritten',
    { head: TOP, chain: TWO, holdsOurs: true },
    BASE,
    [{ tree: 't1', message: 'm1 reworded' }, PLANNED[1]!],
    false,
    { action: 'write', expectedOld: TOP },
  ],
  [
    'a person committed on top of ours: diverged, scion commits below',
    { head: USER_HEAD, chain: [], holdsOurs: true },
    BASE,
    PLANNED,
    false,
    { action: 'diverged', head: USER_HEAD, scions: true },
  ],
  [
    'a person committed on top of ours, --force: rewritten over their commit',
    { head: USER_HEAD, chain: [], holdsOurs: true },
    BASE,
    PLANNED,
    true,
    { action: 'write', expectedOld: USER_HEAD },
  ],
  [
    'ours lower down but not at the head, holdsOurs not looked at: diverged, no scion commits counted',
    { head: USER_HEAD, chain: TWO },
    BASE,
    PLANNED,
    false,
    { action: 'diverged', head: USER_HEAD, scions: false },
  ],
  [
    'a branch scion never wrote: diverged, and it says so',
    { head: USER_HEAD, chain: [], holdsOurs: false },
    BASE,
    PLANNED,
    false,
    { action: 'diverged', head: USER_HEAD, scions: false },
  ],
  [
    'a branch scion never wrote, --force: never overwritten',
    { head: USER_HEAD, chain: [], holdsOurs: false },
    BASE,
    PLANNED,
    true,
    { action: 'diverged', head: USER_HEAD, scions: false },
  ],
  [
    'holdsOurs not looked at counts as false: --force does not overwrite',
    { head: USER_HEAD, chain: [] },
    BASE,
    PLANNED,
    true,
    { action: 'diverged', head: USER_HEAD, scions: false },
  ],
];

describe('decideBranch', () => {
  it.each(rows)('%s', (_name, state, base, planned, force, expected) => {
    expect(decideBranch(state, base, planned, force)).toEqual(expected);
  });
});
