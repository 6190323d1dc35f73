// The scenario `scion track` is tried on against each host (track-cli.test.ts on GitHub,
// track-gitlab.test.ts on GitLab): a recipe of four jobs (a, b and c change their file, d changes
// nothing), and what the first track says once the test made a merged, b failing without a reviewer
// and idle 20 days, c asked of a reviewer 2 days ago, and the base moved one commit on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { TrackSnapshot } from '../../src/track/types.js';
import type { Remote } from '../support/git-remote.js';
import { recipeFile } from '../support/recipe-file.js';

export const RECIPE = recipeFile(
  'name: two\njobs:\n' +
    ['a', 'b', 'c', 'd'].map((j) => `  - { name: ${j}, files: { include: ["${j}.txt"] } }\n`).join('') +
    'steps:\n  - replace: { old_string: "v1", new_string: "v2", replace_all: true }\n',
);
export const FILES = { 'a.txt': 'uses v1\n', 'b.txt': 'also v1\n', 'c.txt': 'v1 again\n', 'd.txt': 'no change here\n' };
export const DAY = 86_400_000;
/** When the first track runs (its clock). */
export const FIRST_AT = Date.parse('2026-03-01T00:00:00Z');

/** The first track's summary line. */
export const FIRST_SUMMARY = '4 jobs: 2 open, 1 merged, 1 none; 1 failing, 1 without reviewer, 1 stale, 2 behind; 3 files left to change\n';

/** Moves the remote's base branch one commit on (a push from another clone), so every branch is behind by one. */
export async function moveBaseOn(remote: Remote, authArgs: readonly string[]): Promise<void> {
  const other = await remote.clone();
  await other.gitAsync('commit', '--allow-empty', '-m', 'moved on');
  await other.gitAsync(...authArgs, 'push', '-q', 'origin', 'main');
}

/** The history file `h.jsonl` in `dir` holds the first track's one snapshot. */
export function expectFirstHistory(dir: string): void {
  const lines = readFileSync(join(dir, 'h.jsonl'), 'utf8').trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0]!) as TrackSnapshot).toEqual({
    at: new Date(FIRST_AT).toISOString(),
    recipe: 'two',
    jobs: 4,
    open: 2,
    draft: 0,
    merged: 1,
    closed: 0,
    declined: 0,
    none: 1,
    failing: 1,
    noReviewer: 1,
    stale: 1,
    behind: 2,
    remaining: 3,
  } satisfies TrackSnapshot);
}
