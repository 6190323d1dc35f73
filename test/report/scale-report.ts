// The run report of the HTML report's scale case, shared by its Chromium test (size, behaviour) and
// the benchmark (open time): 150 jobs, 1,400 changed files, 87 jobs failing the same way.
import type { FileReport, JobReport, RunReport } from '../../src/model/types.js';
import { fileReport, job } from './sample.js';

export const SCALE_JOBS = 150;
export const SCALE_FILES = 1_400;
export const SCALE_FAILED = 87;

/** The page's budget at that size: under 4 MB (and opened in under 2 s, which only the benchmark measures). */
export const HTML_MAX_BYTES = 4_000_000;
export const HTML_MAX_OPEN_MS = 2_000;

/** A 40-line source file with a logger call renamed on three lines. */
function changedFile(path: string, n: number): FileReport {
  const before =
    Array.from({ length: 40 }, (_, i) => (i % 13 === 5 ? `  legacyLog("${path} ${n} ${i}");` : `  const v${i} = compute(${i}, "${path}");`)).join('\n') + '\n';
  return fileReport(path, before, before.replaceAll('legacyLog(', 'log('));
}

export function scaleReport(): RunReport {
  const jobs: JobReport[] = [];
  let made = 0;
  for (let j = 0; j < SCALE_JOBS; j++) {
    const pkg = `pkg-${String(j).padStart(3, '0')}`;
    const count = Math.floor(((j + 1) * SCALE_FILES) / SCALE_JOBS) - made;
    made += count;
    const files = Array.from({ length: count }, (_, k) => changedFile(`packages/${pkg}/src/mod${k}.ts`, k));
    const failed = j < SCALE_FAILED;
    jobs.push(
      job({
        recipe: 'rename-logger',
        name: pkg,
        status: failed ? 'failed' : 'changed',
        files,
        errors: failed
          ? [
              {
                step: 1,
                file: `packages/${pkg}/src/legacy.ts`,
                kind: 'not-found',
                code: 8,
                message: `String to replace not found in packages/${pkg}/src/legacy.ts.`,
              },
            ]
          : [],
        diagnostics: failed
          ? [{ file: `packages/${pkg}/src/mod0.ts`, line: 3, col: 5, severity: 'error', message: "Cannot find name 'log'.", source: 'tsc', code: 'TS2304' }]
          : [],
        skipped: j % 10 === 0 ? [{ step: 0, file: `packages/${pkg}/src/old.ts`, reason: 'already-applied' }] : [],
      }),
    );
  }
  return { version: 1, repo: '/work/monorepo', dryRun: false, jobs };
}
