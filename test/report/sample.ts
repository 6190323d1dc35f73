// Run reports shaped like the runner's: hunks come from jsdiff's structuredPatch over real text.
import { structuredPatch } from 'diff';
import type { FileReport, JobReport, RunReport } from '../../src/model/types.js';

export function fileReport(path: string, before: string, after: string, group = 'rest'): FileReport {
  const patch = structuredPatch(`a/${path}`, `b/${path}`, before, after, '', '', { context: 3 });
  let added = 0;
  let removed = 0;
  for (const h of patch.hunks) {
    for (const l of h.lines) {
      if (l.startsWith('+')) added += 1;
      else if (l.startsWith('-')) removed += 1;
    }
  }
  return { path, group, added, removed, hunks: patch.hunks, ...(before === '' ? { created: true } : {}) };
}

const zeroUsage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
const sha = (c: string) => c.repeat(40);

export function job(over: Partial<JobReport> & Pick<JobReport, 'name'>): JobReport {
  return {
    recipe: 'rename-logger',
    description: 'Move to the new logger',
    base: sha('b'),
    branch: `scion/rename-logger/${over.name}`,
    status: 'changed',
    head: sha('c'),
    worktree: null,
    commits: [],
    files: [],
    errors: [],
    skipped: [],
    usage: zeroUsage,
    durationMs: 12,
    ...over,
  };
}

const logBefore = [
  'import { legacyLog } from "./legacy";',
  '',
  'export function main() {',
  '  legacyLog("start");',
  '  work();',
  '  legacyLog("done");',
  '}',
  '',
].join('\n');
const logAfter = logBefore.replace('"./legacy"', '"./logger"').replace('{ legacyLog }', '{ log }').replaceAll('legacyLog(', 'log(');

/** Two recipes' worth of jobs: a changed one with two groups, a failed one, an empty one with skips. */
export function sampleReport(): RunReport {
  const core = fileReport('src/core/log.ts', logBefore, logAfter, 'core');
  const created = fileReport('src/core/logger.ts', '', 'export const log = console.log;\n', 'core');
  const web = fileReport('packages/web/app.ts', 'legacyLog("web");\nrender();\n', 'log("web");\nrender();\n', 'rest');
  return {
    version: 1,
    repo: '/tmp/repo',
    dryRun: false,
    jobs: [
      job({
        name: 'core',
        commits: [
          { sha: sha('1'), group: 'core', message: 'refactor(core): new logger\n\nScion-Recipe: rename-logger', files: [core.path, created.path] },
          { sha: sha('2'), group: 'rest', message: 'refactor: new logger (rest)', files: [web.path] },
        ],
        files: [core, created, web],
        usage: { inputTokens: 12_345, outputTokens: 678, cacheReadTokens: 100, cacheWriteTokens: 0, costUsd: 0.0421 },
      }),
      job({
        name: 'api',
        status: 'failed',
        head: null,
        errors: [
          {
            step: 1,
            file: 'packages/api/server.ts',
            kind: 'not-unique',
            code: 9,
            message: 'Found 2 matches of the string to replace, but replace_all is false.',
          },
          { step: 3, file: null, kind: 'branch-diverged', message: 'scion/rename-logger/api holds commit 1234567 that scion did not write.' },
        ],
      }),
      job({
        recipe: 'drop-polyfills',
        description: 'Remove polyfills | old browsers',
        name: 'drop-polyfills',
        branch: 'scion/drop-polyfills',
        status: 'empty',
        head: null,
        skipped: [{ step: 0, file: 'src/polyfills.ts', reason: 'already-applied' }],
      }),
    ],
  };
}
