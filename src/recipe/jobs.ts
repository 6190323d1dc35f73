// Recipe → jobs: each job gets a name, a file selection and a branch. Pure: the caller lists directories.
import { createHash } from 'node:crypto';
import { branchNameProblem } from './branch-name.js';
import { planError } from './plan-error.js';
import { escapeGlob, globTest, matcher, type SelectionLike } from './globs.js';
import type { Recipe } from './schema.js';
import { renderTemplate } from './templates.js';
import { compareCodeUnits } from '../util/compare.js';

export interface JobSpec {
  readonly recipe: Recipe;
  readonly name: string;
  /** Position after expansion (0-based): what --shard counts. */
  readonly index: number;
  readonly branch: string;
  /**
   * The job's own selection, repository-relative. A file is in the job when it matches this AND the
   * recipe's `files` (see `jobMatcher`). For the default job this is the recipe's selection itself.
   */
  readonly files: { include: string[]; exclude: string[] };
}

interface Draft {
  readonly name: string;
  readonly files: { include: string[]; exclude: string[] };
  /** Named after a directory (`each`): a name the user did not choose, so one git refuses in a ref is made safe. */
  readonly fromDir?: boolean;
}

/**
 * One job per `jobs` entry, an `each` entry giving one job per matching directory of `dirs` (every
 * directory of the base tree, POSIX, no trailing slash) in sorted order. No jobs: one job named after
 * the recipe. Throws a `plan` error for duplicate job names or branches, a bad branch name, or an `each`
 * that matches no directory.
 */
export function expandJobs(recipe: Recipe, dirs: readonly string[]): JobSpec[] {
  const drafts: Draft[] = [];
  if (recipe.jobs.length === 0) drafts.push({ name: recipe.name, files: copy(recipe.files) });
  for (const entry of recipe.jobs) {
    if ('name' in entry) {
      drafts.push({ name: entry.name, files: copy(entry.files ?? recipe.files) });
      continue;
    }
    // Dot-directories (.github, .vscode) are rarely meant by "packages/*"-style patterns.
    const isMatch = globTest([entry.each.replace(/\/+$/, '')], { dot: false });
    const matched = [...new Set(dirs)].filter((d) => isMatch(d)).sort(compareCodeUnits);
    if (matched.length === 0) {
      throw planError(
        'each-matches-nothing',
        `Recipe "${recipe.name}": jobs each "${entry.each}" matches no directory of the base tree; fix the glob or remove the entry.`,
      );
    }
    const own = entry.files ?? { include: ['**'], exclude: [] };
    for (const dir of matched) {
      drafts.push({
        name: dir.slice(dir.lastIndexOf('/') + 1),
        files: { include: own.include.map((g) => under(dir, g)), exclude: own.exclude.map((g) => under(dir, g)) },
        fromDir: true,
      });
    }
  }
  const jobs = drafts.map((d, index) => ({
    recipe,
    name: d.name,
    index,
    files: d.files,
    branch: branchFor(recipe, d.name, drafts.length > 1, d.fromDir === true),
  }));
  checkUnique(recipe, jobs);
  return jobs;
}

/** True for a path in the job: inside both the recipe's selection and the job's own. */
export function jobMatcher(job: Pick<JobSpec, 'recipe' | 'files'>): (path: string) => boolean {
  const inRecipe = matcher(job.recipe.files);
  const inJob = matcher(job.files);
  return (path) => inRecipe(path) && inJob(path);
}

/**
 * Branch names the recipe gives, checked before any repository is read (`scion validate`, loading):
 * the default job's and each named job's branch, and for `each` entries the template with a sample
 * directory name (the real names are checked again when the jobs are expanded).
 */
export function branchProblems(recipe: Recipe): { readonly path: (string | number)[]; readonly message: string }[] {
  const several = recipe.jobs.length > 1 || recipe.jobs.some((j) => 'each' in j);
  const names: { name: string; path: (string | number)[]; sample: boolean }[] =
    recipe.jobs.length === 0
      ? [{ name: recipe.name, path: ['branch'], sample: false }]
      : recipe.jobs.map((j, i) =>
          'name' in j ? { name: j.name, path: ['jobs', i, 'name'], sample: false } : { name: 'job', path: ['jobs', i, 'each'], sample: true },
        );
  const out: { path: (string | number)[]; message: string }[] = [];
  const seen = new Set<string>();
  for (const n of names) {
    const branch = branchFor(recipe, n.name, several);
    const bad = branchNameProblem(branch);
    if (!bad) continue;
    const path = recipe.branch !== undefined ? ['branch'] : n.path;
    const message =
      `the branch ${n.sample ? `of a job of this entry (e.g. "${branch}")` : `"${branch}"`} ${bad}; a branch must be a valid git ` +
      `branch name (git check-ref-format)`;
    if (seen.has(message)) continue;
    seen.add(message);
    out.push({ path, message });
  }
  return out;
}

function branchFor(recipe: Recipe, job: string, several: boolean, fromDir = false): string {
  let tpl = recipe.branch ?? (several ? 'scion/{{recipe}}/{{job}}' : 'scion/{{recipe}}');
  // Several jobs on one branch would overwrite each other: each needs its own.
  if (several && !/\{\{\s*job\s*\}\}/.test(tpl)) tpl = `${tpl.replace(/\/+$/, '')}/{{job}}`;
  const branch = renderTemplate(tpl, { recipe: recipe.name, job });
  // A directory's name is data: Next.js routes ([id], [...slug]) hold characters git refuses in a ref.
  if (!fromDir || branchNameProblem(branch) === null) return branch;
  return renderTemplate(tpl, { recipe: recipe.name, job: refSafeName(job) });
}

/**
 * A directory name as a ref component: its letters, digits, `_`, `-` and single dots (`[...slug]` →
 * `slug`), then `-` and 6 hex of a hash of the whole name, so `[id]`, `(id)` and `id` stay apart and
 * the same directory gives the same branch on every run.
 */
function refSafeName(name: string): string {
  const slug = name
    .replace(/[^\p{L}\p{N}_.-]+/gu, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[-.]+|[-.]+$/g, '');
  const hash = createHash('sha1').update(name).digest('hex').slice(0, 6);
  return `${slug === '' ? 'dir' : slug}-${hash}`;
}

function checkUnique(recipe: Recipe, jobs: readonly JobSpec[]): void {
  const badNames: string[] = [];
  for (const j of jobs) {
    const bad = branchNameProblem(j.branch);
    if (bad) badNames.push(`job "${j.name}": branch "${j.branch}" ${bad}`);
  }
  if (badNames.length > 0) {
    throw planError(
      'bad-branch',
      `Recipe "${recipe.name}" gives ${badNames.length === 1 ? 'a branch name' : 'branch names'} git refuses: ${badNames.join('; ')}. Change the ` +
        `recipe's branch template (or the job's name).`,
      badNames,
    );
  }
  const problems: string[] = [];
  const dupes = (values: string[]) => [...new Set(values.filter((v, i) => values.indexOf(v) !== i))];
  for (const name of dupes(jobs.map((j) => j.name))) problems.push(`several jobs are named "${name}"`);
  for (const b of dupes(jobs.map((j) => j.branch))) problems.push(`several jobs share the branch "${b}"`);
  if (problems.length > 0) {
    throw planError(
      'conflicting-jobs',
      `Recipe "${recipe.name}" has conflicting jobs: ${problems.join('; ')}. Give each job a unique name and branch.`,
      problems,
    );
  }
}

/** A job glob under its `each` directory, whose name is literal: `app/(marketing)` is no glob group. */
function under(dir: string, glob: string): string {
  const g = glob.replace(/^(\.\/)+/, '');
  const d = escapeGlob(dir);
  return g.startsWith('!') ? `!${d}/${g.slice(1)}` : `${d}/${g}`;
}

function copy(sel: SelectionLike): { include: string[]; exclude: string[] } {
  return { include: [...sel.include], exclude: [...sel.exclude] };
}
