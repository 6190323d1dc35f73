// The `guards` block of a recipe: which guards hold for the model's edits (agent steps and verify fix
// rounds), and which more files count as tests. Every guard is on unless the recipe turns it off.
import * as z from 'zod';
import { globList } from './schema-parts.js';

const on = (description: string) => z.boolean().default(true).describe(`${description} Default: true.`);

export const guardsSchema = z
  .strictObject({
    tests: globList('Globs of more test files, beside the usual names and folders of each language. Default: [].').prefault([]),
    testFiles: on('Refuse a model edit that deletes, empties or renames away a test file.'),
    testCount: on('Refuse a model edit after which a test file holds fewer test cases (it/test/describe, test_* functions, Go Test*, Java @Test).'),
    skips: on(
      'Refuse a model edit that adds a skip or focus marker (.skip, .only, xit, it.todo, @pytest.mark.skip, @unittest.skip, @Disabled, @Ignore, t.Skip).',
    ),
    suppressions: on(
      'Refuse a model edit that adds a suppression comment (@ts-ignore, @ts-nocheck, @ts-expect-error, eslint-disable, # type: ignore, # noqa, //nolint, …).',
    ),
    config: on(
      'Refuse a model edit of the files the checks read their rules from ' +
        "(tsconfig, lint and test-runner configuration, the files verify commands name, package.json's scripts).",
    ),
  })
  .optional()
  .describe(
    'Guards on the edits the model makes (agent steps and verify fix rounds); a refused edit is explained to the model, ' +
      'and a model that insists fails the job with kind "guard". Default: every guard on.',
  );

export type GuardsConfig = z.output<typeof guardsSchema>;
