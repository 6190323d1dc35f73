// The command line itself: validation with line:col, exit codes, help, list.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scion } from '../support/cli.js';
import { recipeFile } from '../support/recipe-file.js';

const root = new URL('../..', import.meta.url).pathname;

describe('cli', () => {
  it('validate prints every problem with file:line:col and exits 2', async () => {
    const file = recipeFile('name: Bad_Name\nsteps:\n  - edit: { file: a.ts }\n  - nonsense: 1\nwhatever: true\n');
    const res = await scion(['validate', file], { cwd: tmpdir() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`recipe.yaml:1:7: name`);
    expect(res.stderr).toContain(`recipe.yaml:3:11: steps[0].edit.edits`);
    expect(res.stderr).toContain(`recipe.yaml:4:5: steps[1]`);
    expect(res.stderr).toContain(`recipe.yaml:5:1: whatever`);
  });

  it('run refuses an invalid recipe before doing anything (exit 2)', async () => {
    const file = recipeFile('name: ok\nsteps: []\n');
    const res = await scion(['run', file], { cwd: tmpdir() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('invalid');
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('run outside a repository says so in one sentence (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scion-norepo-'));
    const res = await scion(['run', recipeFile('name: x\nsteps:\n  - replace: { old_string: a, new_string: b }\n'), '--repo', dir], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(dir);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('an unknown flag or command is bad usage (exit 2)', async () => {
    expect((await scion(['run', 'x.yaml', '--frobnicate'], { cwd: tmpdir() })).code).toBe(2);
    expect((await scion(['explode'], { cwd: tmpdir() })).code).toBe(2);
    expect((await scion([], { cwd: tmpdir() })).code).toBe(2);
  });

  it('--help teaches: commands, flags with their meaning, exit codes', async () => {
    const top = await scion(['--help'], { cwd: tmpdir() });
    expect(top.code).toBe(0);
    for (const c of ['run', 'plan', 'validate', 'list', 'worktrees']) expect(top.stdout).toContain(c);
    const run = await scion(['run', '--help'], { cwd: tmpdir() });
    for (const f of ['--repo', '--base', '--dry-run', '--concurrency', '--shard', '--report', '--pr-body', '--html', '--keep-worktrees', '--force', '--json']) {
      expect(run.stdout).toContain(f);
    }
    expect(run.stdout).toContain('Exit status');
  });

  it('--version prints package.json version; -h, --help and help CMD work for every command', async () => {
    const { readFileSync } = await import('node:fs');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const v = await scion(['--version'], { cwd: tmpdir() });
    expect(v).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    for (const cmd of ['run', 'plan', 'validate', 'list', 'worktrees', 'merge-reports', 'pr', 'schema']) {
      const h = await scion([cmd, '-h'], { cwd: tmpdir() });
      expect(h.code).toBe(0);
      expect(h.stdout).toContain(`scion ${cmd}`);
      expect(await scion([cmd, '--help'], { cwd: tmpdir() })).toEqual(h);
      expect(await scion(['help', cmd], { cwd: tmpdir() })).toEqual(h);
    }
    expect((await scion(['help'], { cwd: tmpdir() })).stdout).toBe((await scion(['--help'], { cwd: tmpdir() })).stdout);
    const unknown = await scion(['help', 'runn'], { cwd: tmpdir() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('did you mean run?');
  });

  it('plan --help lists only what plan honours', async () => {
    const plan = await scion(['plan', '--help'], { cwd: tmpdir() });
    for (const f of ['--repo', '--base', '--job', '--concurrency', '--shard', '--report', '--pr-body', '--html', '--json', '--patch', '--stat'])
      expect(plan.stdout).toContain(f);
    const listed = (text: string) => [...text.matchAll(/^ +(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1]);
    expect(listed(plan.stdout)).not.toEqual(expect.arrayContaining(['--push']));
    for (const f of ['--push', '--push-failed', '--pr', '--draft', '--label', '--pr-base', '--keep-worktrees', '--dry-run'])
      expect(listed(plan.stdout)).not.toContain(f);
    const run = await scion(['run', '--help'], { cwd: tmpdir() });
    for (const f of ['--push', '--draft', '--label', '--pr-base', '--keep-worktrees', '--dry-run', '--job']) expect(run.stdout).toContain(f);
    for (const f of ['--patch', '--stat']) expect(listed(run.stdout)).not.toContain(f);
  });

  it('list shows the bundled recipes with name, description and jobs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scion-list-'));
    cpSync(join(root, 'recipes'), join(dir, 'recipes'), { recursive: true });
    const res = await scion(['list'], { cwd: dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('rename-logger');
    expect(res.stdout).toMatch(/NAME\s+DESCRIPTION\s+JOBS/);
  });
});
