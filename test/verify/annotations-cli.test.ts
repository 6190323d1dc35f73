// `scion run` under GITHUB_ACTIONS=true prints the failed verify's diagnostics as workflow commands;
// with --json they go to stderr so stdout stays the report alone. The report lists them per job.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';

const makeRepo = reposAfterEach();
const cleanups = cleanupAfterEach();

const RECIPE =
  `name: lint
steps:
  - replace: { old_string: "var ", new_string: "let ", replace_all: true }
verify:
  - run: "printf 'src/a.js:1:5: error: a, b: 100%% wrong\\\\nsrc/a.js:2:1: warning: unused [-Wunused]\\\\n/usr/include/x.h:1:1: error: not ` +
  `ours\\\\n' >&2; exit 1"
`;

describe('annotations from the CLI', () => {
  it('are printed under GITHUB_ACTIONS=true, and only then', async () => {
    const r = await makeRepo({ 'src/a.js': 'var a = 1;\nvar b = 2;\n' });
    const file = recipeFile(RECIPE);
    const lines = [
      '::error file=src/a.js,line=1,col=5,title=scion lint%3A generic::a, b: 100%25 wrong',
      '::warning file=src/a.js,line=2,col=1,title=scion lint%3A generic -Wunused::unused',
    ];

    const gha = await scion(['run', file, '--repo', r.dir], { cwd: r.dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(gha.code).toBe(1);
    expect(gha.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual(lines);

    const out = mkdtempSync(join(tmpdir(), 'scion-body-'));
    cleanups.push(() => rmSync(out, { recursive: true, force: true }));
    const body = join(out, 'pr.md');
    const json = await scion(['run', file, '--repo', r.dir, '--json', '--pr-body', body], { cwd: r.dir, env: { GITHUB_ACTIONS: 'true' } });
    // The PR body lists them too (capped per job).
    expect(readFileSync(body, 'utf8')).toContain('What verify reported:\n\n- `src/a.js:1:5` error: a, b: 100% wrong\n- `src/a.js:2:1` warning: unused\n');
    const report = JSON.parse(json.stdout) as RunReport;
    expect(report.jobs[0]!.status).toBe('failed');
    expect(report.jobs[0]!.errors.map((e) => e.kind)).toEqual(['command-failed']);
    expect(report.jobs[0]!.diagnostics).toEqual([
      { file: 'src/a.js', line: 1, col: 5, severity: 'error', message: 'a, b: 100% wrong', source: 'generic' },
      { file: 'src/a.js', line: 2, col: 1, severity: 'warning', message: 'unused', source: 'generic', code: '-Wunused' },
    ]);
    expect(json.stderr.split('\n').filter((l) => l.startsWith('::'))).toEqual(lines);

    const plain = await scion(['run', file, '--repo', r.dir], { cwd: r.dir });
    expect(`${plain.stdout}${plain.stderr}`).not.toContain('::error');
  });

  it('carry no secret of the environment: a diagnostic that echoes a token is masked in the annotation', async () => {
    const r = await makeRepo({ 'src/a.js': 'var a = 1;\n' });
    const token = 'ghp_FAKEannotationTOKEN0123456789';
    const file = recipeFile(`name: leaky-lint
steps:
  - replace: { old_string: "var ", new_string: "let " }
verify:
  - run: "printf 'src/a.js:1:5: error: bad credential %s\\\\n' \\"$GITHUB_TOKEN\\" >&2; exit 1"
`);
    const res = await scion(['run', file, '--repo', r.dir], { cwd: r.dir, env: { GITHUB_ACTIONS: 'true', GITHUB_TOKEN: token } });
    expect(res.code).toBe(1);
    const annotations = res.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toEqual(['::error file=src/a.js,line=1,col=5,title=scion leaky-lint%3A generic::bad credential ***']);
    expect(res.stdout + res.stderr).not.toContain(token);
  });
});
