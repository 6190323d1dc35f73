// One job per package folder, the shape the worktree tests share: a repository whose pkgs/<name>/index.ts
// calls `legacy(<name>)`, recipes that rename it to `modern(` and then run commands, a run through the
// CLI read back with its report, and what scion left of its worktrees, as native git and the disk show it.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { JobReport, RunReport } from '../../src/model/types.js';
import { scion, type CliResult } from './cli.js';
import type { RepoFile, TestRepo } from './git-repo.js';
import { recipeFile } from './recipe-file.js';

/** `.gitignore` ignoring `build/`, and pkgs/<name>/index.ts for each name; `extra` added (or replacing). */
export function pkgFiles(names: readonly string[], extra: Record<string, RepoFile> = {}): Record<string, RepoFile> {
  const files: Record<string, RepoFile> = { '.gitignore': 'build/\n' };
  for (const n of names) files[`pkgs/${n}/index.ts`] = `legacy(${n});\n`;
  return { ...files, ...extra };
}

export interface PkgRecipe {
  /** Which folders under pkgs/ are jobs (a glob). Default `*`. */
  readonly each?: string;
  readonly base?: string;
  /** `run` steps after the replace. */
  readonly run?: readonly string[];
  /** `verify` commands. */
  readonly verify?: readonly string[];
}

/** A recipe file: one job per matching pkgs/ folder, `legacy(` replaced by `modern(`, then the commands. */
export function pkgRecipe(name: string, o: PkgRecipe = {}): string {
  const lines = [`name: ${name}`, ...(o.base === undefined ? [] : [`base: ${o.base}`]), 'jobs:', `  - each: "pkgs/${o.each ?? '*'}"`, 'steps:'];
  lines.push('  - replace: { old_string: "legacy(", new_string: "modern(" }');
  // A JSON string is a YAML double-quoted scalar: any command goes in as it is.
  for (const c of o.run ?? []) lines.push(`  - run: ${JSON.stringify(c)}`);
  if (o.verify !== undefined && o.verify.length > 0) lines.push('verify:', ...o.verify.map((c) => `  - run: ${JSON.stringify(c)}`));
  return recipeFile(`${lines.join('\n')}\n`);
}

export interface PkgRun extends CliResult {
  /** The report's jobs by name, in report order (empty when no report was written). */
  readonly jobs: Map<string, JobReport>;
  /** The stderr lines that contain `text`. */
  readonly lines: (text: string) => string[];
}

/** `scion run <recipes> --repo <r> <flags> --report <temp file>`; never an internal error. */
export async function runPkgs(r: TestRepo, recipes: string | readonly string[], flags: readonly string[] = []): Promise<PkgRun> {
  const dir = mkdtempSync(join(tmpdir(), 'scion-pkg-report-'));
  try {
    const file = join(dir, 'report.json');
    const res = await scion(['run', ...(typeof recipes === 'string' ? [recipes] : recipes), '--repo', r.dir, ...flags, '--report', file], { cwd: r.dir });
    expect(res.stderr).not.toContain('internal error');
    const jobs = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RunReport).jobs : [];
    return { ...res, jobs: new Map(jobs.map((j) => [j.name, j])), lines: (text) => res.stderr.split('\n').filter((l) => l.includes(text)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The linked worktrees native git lists (their paths), scion's or not. */
export function linkedWorktrees(r: TestRepo): string[] {
  return r
    .git('worktree', 'list', '--porcelain')
    .split('\n\n')
    .slice(1)
    .map((w) => w.split('\n')[0]!.replace(/^worktree /, ''));
}

/** What scion keeps of its jobs on disk: job locks and worktree folders. */
export function scionLeftovers(r: TestRepo): string[] {
  const names = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);
  return [...names(join(r.dir, '.git', 'scion', 'locks')), ...names(join(r.dir, '.git', 'scion-worktrees'))];
}

/** No worktree, lock or folder of scion's left (other worktrees, `others`, may stay), and the user's checkout untouched. */
export function nothingLeft(r: TestRepo, others: readonly string[] = []): void {
  expect(linkedWorktrees(r)).toEqual(others);
  expect(scionLeftovers(r)).toEqual([]);
  expect(r.git('status', '--porcelain', '--ignored', '--untracked-files=all')).toBe('');
}
