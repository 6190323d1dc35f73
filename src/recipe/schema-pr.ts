// The recipe's `pr:` block: how the pull request of each job's branch looks and lives.
import * as z from 'zod';
import { template } from './schema-parts.js';

/** Placeholders the pull request's title and body may use. */
export const PR_PLACEHOLDERS = ['recipe', 'job', 'description', 'branch', 'summary'] as const;

const nameList = (description: string) => z.array(z.string().min(1)).prefault([]).describe(description);

export const prSchema = z
  .strictObject({
    title: template(
      PR_PLACEHOLDERS,
      "Pull request title (template: {{recipe}} {{job}} {{description}} {{branch}}). Default: the first line of the branch's commit message.",
    ).optional(),
    body: template(
      PR_PLACEHOLDERS,
      'Pull request description (template; {{summary}} is the generated description of the job). Default: the generated description.',
    ).optional(),
    draft: z.boolean().default(false).describe('Open new pull requests as drafts; --draft sets it too. Default: false.'),
    labels: nameList('Labels added to the pull request; --label adds more. Default: [].'),
    reviewers: nameList('Reviewers requested: user names, or `team:slug` for a team. Default: [].'),
    assignees: nameList('Users assigned to the pull request. Default: [].'),
    autoMerge: z
      .enum(['squash', 'merge', 'rebase'])
      .optional()
      .describe("Enable the host's auto-merge with this method: it merges once the checks pass and reviews allow. Default: off."),
    closeWhenEmpty: z
      .boolean()
      .default(true)
      .describe(
        "Close the open pull request (with a comment) when the job ends empty, and delete its branch when every commit on it is scion's. Default: true.",
      ),
  })
  .describe('Pull requests of the job branches (`run --push --pr`, `scion pr`).');

export type PrBlock = z.output<typeof prSchema>;
