// Secrets stay out of everything the CLI prints or writes: one redactor at the edge,
// over stdout, stderr, the report, the PR body, the HTML report and the GitHub step files.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scion } from '../support/cli.js';
import { reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';

const repo = reposAfterEach();
const TOKEN = 'ghp_FAKEfakeFAKE0123456789abcdef';
const OTHER = 'hunter2-very-secret';

describe('redaction at the edge', () => {
  it('no output file or stream holds a token from the environment', async () => {
    const r = await repo({ 'a.txt': 'v1\n' });
    const out = mkdtempSync(join(tmpdir(), 'scion-redact-'));
    writeFileSync(join(out, 'summary.md'), '');
    writeFileSync(join(out, 'output.txt'), '');
    // The token reaches the report through the recipe itself (its description) and a failing command.
    const recipe = recipeFile(
      `name: leaky\ndescription: "deploy with ${TOKEN}"\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n  - run: "echo ` +
        `token=$GITHUB_TOKEN pw=$DB_PASSWORD; echo ${TOKEN} >&2; exit 3"\n`,
    );
    const env = { GITHUB_TOKEN: TOKEN, DB_PASSWORD: OTHER, GITHUB_STEP_SUMMARY: join(out, 'summary.md'), GITHUB_OUTPUT: join(out, 'output.txt') };
    const args = ['run', recipe, '--repo', r.dir, '--report', join(out, 'r.json'), '--pr-body', join(out, 'pr.md'), '--html', join(out, 'r.html')];
    const res = await scion(args, { cwd: r.dir, env });
    expect(res.code).toBe(1);
    const json = await scion([...args.slice(0, 4), '--dry-run', '--json'], { cwd: r.dir, env });
    for (const [what, text] of [
      ['stdout', res.stdout],
      ['stderr', res.stderr],
      ['--json', json.stdout],
      ...readdirSync(out).map((f) => [f, readFileSync(join(out, f), 'utf8')]),
    ] as const) {
      expect(text.length, what).toBeGreaterThan(0);
      expect(text, what).not.toContain(TOKEN);
      expect(text, what).not.toContain(OTHER);
    }
    expect(readFileSync(join(out, 'r.json'), 'utf8')).toContain('***');
  });

  it('a usage error that repeats what was typed masks the token too', async () => {
    const r = await repo({ 'a.txt': 'v1\n' });
    const recipe = recipeFile('name: x\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n');
    const res = await scion(['run', recipe, '--repo', r.dir, '--base', TOKEN], { cwd: r.dir, env: { GITHUB_TOKEN: TOKEN } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('base "***"');
    expect(res.stderr).not.toContain(TOKEN);
  });
});
