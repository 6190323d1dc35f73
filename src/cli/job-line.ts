// One line per finished job, the same in the live view and in plain output.
import { repoShown, type JobReport, type PlannedJob } from '../api/output.js';

export function jobLine(r: JobReport): string {
  const where = r.head ? `${r.branch} @ ${r.head.slice(0, 12)}` : r.branch;
  const files = `${r.files.length} file${r.files.length === 1 ? '' : 's'}`;
  const commits = `${r.commits.length} commit${r.commits.length === 1 ? '' : 's'}`;
  const errs = r.errors.length > 0 ? `, ${r.errors.length} error${r.errors.length === 1 ? '' : 's'}` : '';
  return `${r.status}: ${commits}, ${files}${errs} → ${where}`;
}

/** A running job as the live view names it: `recipe/job`, after its repository's path in a campaign (`acme/app new-log`). */
export function plannedLabel(j: PlannedJob): string {
  const job = j.recipe === j.name ? j.name : `${j.recipe}/${j.name}`;
  return j.repo === undefined ? job : `${repoShown(j.repo)} ${job}`;
}
