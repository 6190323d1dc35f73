// Whom a piece's pull request asks for review: its CODEOWNERS owners, as the host's review request
// takes them (users by name, `@org/team` as the team `team:<slug>`), besides the recipe's pr.reviewers.
// E-mail owners cannot be asked (the body names them) and GitLab roles are GitLab's approval rules' own.
import type { JobReport } from '../model/types.js';
import { ownerKinds } from '../owners/index.js';

/** The owners of a piece as review requests; [] for a job that was not split. */
export function ownerReviewers(job: JobReport): string[] {
  const kinds = ownerKinds(job.owners ?? []);
  return [...kinds.users, ...kinds.teams.map((t) => `team:${t.slice(t.lastIndexOf('/') + 1)}`)];
}
