// The fix rounds' edits as one more planned commit, group `fix`, after the steps' groups.
import type { JobSpec, Recipe } from '../recipe/index.js';
import { FIX_GROUP } from '../verify/loop.js';
import type { FileState } from '../workspace/types.js';
import { withTrailers } from '../branch/trailers.js';
import type { PlannedCommit } from './commit-plan.js';
import { plural } from '../util/plural.js';

export function fixCommit(recipe: Recipe, job: JobSpec, changes: ReadonlyMap<string, FileState | null>): PlannedCommit[] {
  if (changes.size === 0) return [];
  const files = [...changes.keys()];
  const subject = `${recipe.description ?? recipe.name}: fix what verify reported (${plural(files.length, 'file')})`;
  return [{ group: FIX_GROUP, files, changes, message: withTrailers(subject, recipe.name, job.name, FIX_GROUP) }];
}
