// Which files the guards care about: test files (the usual places and names per language, plus the
// recipe's own globs), the language family a file's markers are read in, and the configuration files
// checks read their rules from (the usual names, plus what the verify commands name with -p/-c).
import { globTest } from '../../recipe/globs.js';

const JS = 'js,jsx,mjs,cjs,ts,tsx,mts,cts';

/** Where test files live, by the conventions of each language's usual runners. */
export const TEST_GLOBS: readonly string[] = [
  // JavaScript and TypeScript: Jest, Vitest, Mocha, node:test, Jasmine, AVA.
  `**/*.{test,spec}.{${JS}}`,
  '**/__tests__/**',
  `**/{test,tests,spec}/**/*.{${JS}}`,
  // Python: pytest and unittest discovery.
  '**/test_*.py',
  '**/*_test.py',
  '**/{test,tests}/**/*.py',
  '**/conftest.py',
  // Go.
  '**/*_test.go',
  // Java and Kotlin: Maven/Gradle layout and Surefire/Failsafe names.
  '**/src/test/**/*.{java,kt}',
  '**/*{Test,Tests,IT}.{java,kt}',
  // Ruby: RSpec and minitest.
  '**/*_spec.rb',
  '**/{test,spec}/**/*.rb',
];

/** Files whose settings decide what a type checker, linter or test runner reports. */
export const CONFIG_GLOBS: readonly string[] = [
  '**/tsconfig*.json',
  '**/jsconfig*.json',
  '**/.eslintrc',
  '**/.eslintrc.*',
  '**/eslint.config.*',
  '**/.eslintignore',
  '**/biome.json',
  '**/biome.jsonc',
  '**/.oxlintrc.json',
  '**/jest.config.*',
  '**/vitest.config.*',
  '**/vitest.workspace.*',
  '**/.mocharc*',
  '**/karma.conf.*',
  '**/mypy.ini',
  '**/.mypy.ini',
  '**/pytest.ini',
  '**/setup.cfg',
  '**/tox.ini',
  '**/.flake8',
  '**/.pylintrc',
  '**/pylintrc',
  '**/ruff.toml',
  '**/.ruff.toml',
  '**/pyrightconfig.json',
  '**/.golangci.{yml,yaml,toml,json}',
  '**/staticcheck.conf',
  '**/checkstyle*.xml',
  '**/pmd*.xml',
  '**/detekt*.yml',
];

/**
 * Files that mix settings of checks with everything else (dependencies, metadata): only their check
 * sections are guarded. package.json: the keys below; pyproject.toml: the [tool.*] tables.
 */
export const PACKAGE_JSON_CHECK_KEYS: readonly string[] = ['scripts', 'jest', 'eslintConfig', 'eslintIgnore', 'mocha', 'ava', 'c8', 'nyc', 'typeCoverage'];

export type Family = 'js' | 'python' | 'go' | 'java';

const FAMILY_BY_EXTENSION: Readonly<Record<string, Family>> = {
  js: 'js',
  jsx: 'js',
  mjs: 'js',
  cjs: 'js',
  ts: 'js',
  tsx: 'js',
  mts: 'js',
  cts: 'js',
  vue: 'js',
  svelte: 'js',
  py: 'python',
  pyi: 'python',
  go: 'go',
  java: 'java',
  kt: 'java',
  kts: 'java',
};

/** The language family whose markers a file is read for; null for any other file. */
export function familyOf(path: string): Family | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? null : (FAMILY_BY_EXTENSION[base.slice(dot + 1).toLowerCase()] ?? null);
}

export interface FileKinds {
  isTest(path: string): boolean;
  isConfig(path: string): boolean;
}

export function fileKinds(extraTests: readonly string[], extraConfig: readonly string[]): FileKinds {
  const tests = globTest([...TEST_GLOBS, ...extraTests], { dot: true });
  const configs = globTest(CONFIG_GLOBS, { dot: true });
  const named = new Set(extraConfig);
  return { isTest: tests, isConfig: (p) => configs(p) || named.has(p) };
}

/** Flags through which a checker is pointed at its configuration file. */
const CONFIG_FLAGS = new Set(['-p', '--project', '-c', '--config', '--config-file', '--rcfile', '--settings', '--tsconfig']);

/**
 * The configuration files a verify command names (`npx tsc -p tsconfig.build.json`, `eslint -c
 * lint.mjs`, `--config=x`), as repository-relative paths: the command runs at the worktree's root.
 * A rough shell split is enough here: a path it misreads is only one guard less, never a refusal of
 * a file the command does not name.
 */
export function configFilesOf(command: string): string[] {
  const words = command.split(/[\s;&|()]+/).map((w) => w.replace(/^['"]|['"]$/g, ''));
  const found: string[] = [];
  for (const [i, w] of words.entries()) {
    const eq = w.indexOf('=');
    const flag = eq > 0 ? w.slice(0, eq) : w;
    if (!CONFIG_FLAGS.has(flag)) continue;
    const value = eq > 0 ? w.slice(eq + 1) : words[i + 1];
    if (value === undefined || value === '' || value.startsWith('-') || value.startsWith('/') || value.includes('$')) continue;
    found.push(value.replace(/^\.\//, '').replace(/\/$/, ''));
  }
  // `-p dir` names a folder: its tsconfig.json is what tsc reads.
  return found.flatMap((p) => (/\.[A-Za-z]+$/.test(p) ? [p] : [`${p}/tsconfig.json`]));
}
