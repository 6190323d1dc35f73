// Secrets stay out of everything scion publishes, end to end through the CLI: a `run`
// step and a `verify` command print every secret of the environment (and a URL with a password)
// and fail; the JSON report, the PR body, the HTML report, the step summary, the Actions outputs
// and the terminal hold the output with every value masked.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../src/model/types.js';
import { cleanupAfterEach, reposAfterEach } from './support/cleanups.js';
import { scion } from './support/cli.js';
import { recipeFile } from './support/recipe-file.js';
import { rm } from 'node:fs/promises';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();

/** Fake secrets, one per redaction rule (fixed names, *TOKEN*, *SECRET*, *PASSWORD*, *_KEY). */
const SECRETS: Record<string, string> = {
  GITHUB_TOKEN: 'ghp_FAKEgithubTOKEN0123456789abcdef',
  GIT_TOKEN: 'fake-git-token-5f2c9e',
  GITLAB_TOKEN: 'glpat-FAKEgitlab-9x8y7z',
  ANTHROPIC_API_KEY: 'sk-ant-FAKE-api-key-314159',
  MY_SECRET: 'my-secret-value-271828',
  DB_PASSWORD: 'db-passw0rd-161803',
  X_KEY: 'x-key-value-141421',
};
const URL_PASSWORD = 'url-passw0rd-173205';

const PRINT = [
  ...Object.keys(SECRETS).map((k) => `echo "${k}=$${k}"`),
  `echo "remote: https://deploy:${URL_PASSWORD}@git.example.com/o/r.git"`,
  `echo "stderr: $GITHUB_TOKEN $X_KEY" >&2`,
].join('; ');

describe('secrets in command output', () => {
  it('never reach the report, PR body, HTML, step summary, Actions outputs or the terminal', async () => {
    const r = await repo({ 'src/a.ts': 'legacyLog(1);\n', 'print.sh': `${PRINT}\n` });
    const out = mkdtempSync(join(tmpdir(), 'scion-secrets-'));
    cleanups.push(() => rm(out, { recursive: true, force: true }));
    const files = {
      report: join(out, 'report.json'),
      pr: join(out, 'pr.md'),
      html: join(out, 'report.html'),
      summary: join(out, 'summary.md'),
      outputs: join(out, 'outputs.txt'),
    };
    writeFileSync(files.summary, '');
    writeFileSync(files.outputs, '');
    const recipe = recipeFile(`name: leaky
description: A recipe whose commands print the environment's secrets
onError: continue
steps:
  - replace: { old_string: "legacyLog(", new_string: "log(" }
  - run: "sh print.sh; exit 3"
verify:
  - run: "sh print.sh; exit 1"
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--report', files.report, '--pr-body', files.pr, '--html', files.html], {
      cwd: r.dir,
      env: { ...SECRETS, GITHUB_STEP_SUMMARY: files.summary, GITHUB_OUTPUT: files.outputs },
    });
    expect(res.code).toBe(1);

    // The output did reach the report, masked: this is redaction, not silence.
    const report = JSON.parse(readFileSync(files.report, 'utf8')) as RunReport;
    const errors = report.jobs[0]!.errors;
    expect(errors.map((e) => [e.step, e.kind])).toEqual([
      [1, 'command-failed'],
      [2, 'command-failed'],
    ]);
    for (const e of errors) {
      expect(e.message).toContain('GITHUB_TOKEN=***');
      expect(e.message).toContain('DB_PASSWORD=***');
      expect(e.message).toContain('https://***@git.example.com/o/r.git');
    }

    const texts: Record<string, string> = { stdout: res.stdout, stderr: res.stderr };
    for (const [name, file] of Object.entries(files)) texts[name] = readFileSync(file, 'utf8');
    // Markdown escapes `_` and `*`; either way the mask is there.
    for (const where of ['pr', 'html']) expect(texts[where], where).toMatch(/GITHUB\\?_TOKEN=(\\?\*){3}/);
    // The JSON report on stdout (--json) too.
    const json = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir, env: SECRETS });
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as RunReport).jobs[0]!.errors[0]!.message).toContain('X_KEY=***');
    texts['json stdout'] = json.stdout;
    texts['json stderr'] = json.stderr;
    for (const [where, text] of Object.entries(texts)) {
      for (const [name, value] of Object.entries({ ...SECRETS, URL_PASSWORD })) {
        expect(text.includes(value), `${name}'s value in ${where}`).toBe(false);
      }
    }
  });

  it('are masked before the output is cut to its tail, so no half of a token survives the cut', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const token = SECRETS['GITHUB_TOKEN']!;
    // The token, then just under the tail's 2000 characters: a tail cut first would keep the token's end.
    const recipe = recipeFile(`name: cut\nsteps:\n  - run: 'printf "%s" "$GITHUB_TOKEN"; printf "y%.0s" $(seq 1 1990); exit 1'\n`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir, env: SECRETS });
    expect(res.code).toBe(1);
    const message = (JSON.parse(res.stdout) as RunReport).jobs[0]!.errors[0]!.message;
    expect(message).toMatch(/y{1990}$/);
    expect(message).not.toContain(token.slice(-10));
  });

  it('never reach the step cache on disk (.git/scion), and a replayed run reports them masked too', async () => {
    const r = await repo({ 'src/a.ts': 'legacyLog(1);\n', 'print.sh': `${PRINT}\n` });
    // Both commands pass, so both are recorded; the second run replays them without running.
    const recipe = recipeFile(`name: cached
steps:
  - run:
      command: "sh print.sh; echo step=$STEP_TOKEN; echo generated > src/gen.txt"
      env: { STEP_TOKEN: "step-given-token-424242" }
verify:
  - run: "sh print.sh"
`);
    const first = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir, env: SECRETS });
    expect(first.code, first.stderr).toBe(0);
    r.git('branch', '-D', 'scion/cached');
    const second = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir, env: SECRETS });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr + second.stdout).toContain('from the step cache');

    const cacheDir = join(r.dir, '.git', 'scion', 'step-cache');
    const entries = readdirSync(cacheDir).filter((f) => f.endsWith('.json'));
    expect(entries).toHaveLength(2);
    const stored = entries.map((f) => readFileSync(join(cacheDir, f), 'utf8')).join('\n');
    // What was stored is the output, masked: not nothing.
    expect(stored).toContain('GITHUB_TOKEN=***');
    const values = { ...SECRETS, URL_PASSWORD, STEP_TOKEN: 'step-given-token-424242' };
    for (const [where, text] of Object.entries({ stored, first: first.stdout + first.stderr, second: second.stdout + second.stderr })) {
      for (const [name, value] of Object.entries(values)) expect(text.includes(value), `${name}'s value in ${where}`).toBe(false);
    }
  });
});
