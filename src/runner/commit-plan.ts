// Pure: a job's changed files → one planned commit per file group, in group order, `rest` last.
import { matcher, renderTemplate, type JobSpec, type Recipe } from '../recipe/index.js';
import { withTrailers } from '../branch/trailers.js';
import type { Changes, FileState } from '../workspace/types.js';

export interface PlannedCommit {
  readonly group: string;
  readonly message: string;
  readonly files: readonly string[];
  readonly changes: ReadonlyMap<string, FileState | null>;
}

export const REST_GROUP = 'rest';

/** Path → the group it joins: the first whose selection matches it, else `rest`. */
export function groupMatcher(recipe: Recipe): (path: string) => string {
  const matchers = recipe.groups.map((g) => ({ name: g.name, match: matcher({ include: g.include, exclude: g.exclude ?? [] }) }));
  return (path) => matchers.find((m) => m.match(path))?.name ?? REST_GROUP;
}

export function planCommits(recipe: Recipe, job: JobSpec, changes: Changes): PlannedCommit[] {
  const byGroup = new Map<string, Map<string, FileState | null>>();
  const order = [...recipe.groups.map((g) => g.name), REST_GROUP];
  const groupOf = groupMatcher(recipe);
  for (const path of [...changes.keys()].sort()) {
    const group = groupOf(path);
    let bucket = byGroup.get(group);
    if (!bucket) byGroup.set(group, (bucket = new Map()));
    bucket.set(path, changes.get(path) ?? null);
  }
  const out: PlannedCommit[] = [];
  for (const group of order) {
    const bucket = byGroup.get(group);
    if (!bucket) continue;
    const files = [...bucket.keys()];
    const template = recipe.groups.find((g) => g.name === group)?.message ?? defaultTemplate(recipe);
    const subject = renderTemplate(template, {
      recipe: recipe.name,
      job: job.name,
      group,
      description: recipe.description ?? recipe.name,
      count: files.length,
    });
    out.push({ group, files, changes: bucket, message: withTrailers(subject, recipe.name, job.name, group) });
  }
  return out;
}

function defaultTemplate(recipe: Recipe): string {
  return recipe.commit.message;
}
