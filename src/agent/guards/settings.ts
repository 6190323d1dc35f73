// Which guards hold for the model's edits, and on which files. A recipe turns a guard off by name
// (`guards: { suppressions: false }`) for a migration that really needs that kind of edit; every
// guard is on unless the recipe says otherwise, and a runner that passes no settings gets them all.

/** The guards by name, in the order a change is checked. */
export const GUARD_NAMES = ['testFiles', 'testCount', 'skips', 'suppressions', 'config'] as const;

export type GuardName = (typeof GUARD_NAMES)[number];

export interface GuardSettings {
  /** No test file deleted, emptied (nothing left but whitespace and comments) or renamed away. */
  readonly testFiles: boolean;
  /** The number of test cases in a test file does not drop. */
  readonly testCount: boolean;
  /** No new skip or focus marker (`it.skip`, `.only`, `xit`, `@pytest.mark.skip`, `@Disabled`, `t.Skip(`…). */
  readonly skips: boolean;
  /** No new suppression comment (`@ts-ignore`, `eslint-disable`, `# type: ignore`, `# noqa`, `//nolint`…). */
  readonly suppressions: boolean;
  /** No change to the files the checks read their rules from (tsconfig, lint and test-runner configuration). */
  readonly config: boolean;
  /** Globs of test files beside the usual ones per language. */
  readonly tests: readonly string[];
  /** Paths of configuration files the recipe's verify commands name (`tsc -p x.json`, `eslint -c y.js`). */
  readonly configFiles: readonly string[];
}

export const DEFAULT_GUARDS: GuardSettings = {
  testFiles: true,
  testCount: true,
  skips: true,
  suppressions: true,
  config: true,
  tests: [],
  configFiles: [],
};

/** What each guard protects, in the words the refusal and the report use. */
export const GUARD_PURPOSE: Readonly<Record<GuardName, string>> = {
  testFiles: 'test files are never deleted, emptied or renamed away',
  testCount: 'the number of test cases in a test file never drops',
  skips: 'no test is skipped or focused',
  suppressions: 'no check is silenced with a suppression comment',
  config: 'the configuration the checks read stays as it is',
};
