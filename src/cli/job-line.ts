// One line per finished job, the same in the live view and in plain output.
import { repoShown, type JobReport, type PlannedJob } from '../api/output.js';
import { plural } from '../api/text.js';

export function jobLine(r: JobReport): string {
  const where = r.head ? `${r.branch} @ ${r.head.slice(0, 12)}` : r.branch;
  const errs = r.errors.length > 0 ? `, ${plural(r.errors.length, 'error')}` : '';
  return `${r.status}: ${plural(r.commits.length, 'commit')}, ${plural(r.files.length, 'file')}${errs} → ${where}`;
}

/** A running job as the live view names it: `recipe/job`, after its repository's path in a campaign (`acme/app new-log`). */
export function plannedLabel(j: PlannedJob): string {
  const job = j.recipe === j.name ? j.name : `${j.recipe}/${j.name}`;
  return j.repo === undefined ? job : `${repoShown(j.repo)} ${job}`;
}
