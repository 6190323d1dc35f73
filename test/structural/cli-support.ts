// Structural steps through the CLI: a recipe folder (the recipe beside its rule files and transforms),
// a real repository, `scion run/plan/validate` in process, and the branch's bytes read back by native git.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { JobReport, RunReport } from '../../src/model/types.js';
import { scion, type CliResult } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { gitEnv, gitRepo, type RepoFile, type TestRepo } from '../support/git-repo.js';

export interface Ran {
  readonly r: TestRepo;
  readonly res: CliResult;
  readonly code: number;
  readonly report: RunReport;
  readonly job: JobReport;
}

/** Cleans up after each test of the file that calls it; returns the helpers bound to that list. */
export function structuralCli() {
  const cleanups = cleanupAfterEach();

  /** A folder holding `recipe.yaml` (the first entry, unless named) and the files beside it; returns the recipe's path. */
  function recipeDir(recipe: string, beside: Record<string, string> = {}): string {
    const dir = mkdtempSync(join(tmpdir(), 'scion-structural-recipe-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    for (const [path, text] of Object.entries(beside)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const file = join(dir, 'recipe.yaml');
    writeFileSync(file, recipe);
    return file;
  }

  async function repo(files: Record<string, RepoFile>): Promise<TestRepo> {
    const r = await gitRepo(files);
    cleanups.push(r.cleanup);
    return r;
  }

  /** `scion <command> <recipe> --repo <repo> --json` and the report it prints. */
  async function run(files: Record<string, RepoFile>, recipe: string, beside: Record<string, string> = {}, command = 'run', more: string[] = []): Promise<Ran> {
    const r = await repo(files);
    const res = await scion([command, recipeDir(recipe, beside), '--repo', r.dir, '--json', ...more], { cwd: r.dir });
    if (res.stdout.trim() === '') throw new Error(`scion printed no report (exit ${res.code}): ${res.stderr}`);
    const report = JSON.parse(res.stdout) as RunReport;
    return { r, res, code: res.code, report, job: report.jobs[0] as JobReport };
  }

  return { cleanups, recipeDir, repo, run };
}

/** A file's bytes at a revision, as native git stores them. */
export function showBytes(r: TestRepo, rev: string, path: string): Buffer {
  return execFileSync('git', ['show', `${rev}:${path}`], { cwd: r.dir, env: gitEnv(), maxBuffer: 1 << 28 });
}

export const utf16 = (text: string): Uint8Array => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
export const bom = (text: string): Uint8Array => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
