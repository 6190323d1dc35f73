// The recipe's `split:` block: a job's change divided by owner, one branch and one pull request per
// set of owners, each reviewed by its owners.
import * as z from 'zod';

export const splitSchema = z
  .strictObject({
    by: z.literal('owners').describe('What divides the change: "owners", the CODEOWNERS file of the job\'s base commit.'),
    codeowners: z
      .enum(['github', 'gitlab'])
      .optional()
      .describe('Whose reading of CODEOWNERS: "github" or "gitlab". Default: gitlab when the repository\'s origin is a GitLab host, else github.'),
    maxFiles: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('A piece with more changed files is cut by directory into pieces of at most this many. Default: no limit.'),
  })
  .describe('After the steps and verify, one branch per set of owners of the changed files (`<job branch>/<piece>`), each its own job in the report.');

export type SplitBlock = z.output<typeof splitSchema>;
