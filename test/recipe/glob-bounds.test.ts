// Globs cost polynomial time whoever writes them, through the CLI: a recipe's files.include, deny and
// groups built of repeated `a/**/` over a deep path, and the agent's glob and grep tools given such a
// pattern by the model, each give the right answer (no clock is read: a regression is a test that never
// ends). A glob that cannot be bounded (a back-reference) is a recipe problem, exit 2.
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { KEY } from '../agent/mem-files.js';
import { done, scripted, tool, toolResults } from '../agent/script.js';
import { scion } from '../support/cli.js';
import { reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import { fakeApisAfterEach } from '../support/servers.js';

const repo = reposAfterEach();
const fakeApi = fakeApisAfterEach();

const DEEP = 'a/'.repeat(40);
const PATHOLOGICAL = (tail: string) => `${'a/**/'.repeat(30)}${tail}`;

describe('glob bounds through the CLI', () => {
  it('files.include, deny and groups of repeated a/**/ over a deep path select exactly what they mean', async () => {
    const r = await repo({ [`${DEEP}x.ts`]: 'old(1);\n', [`${DEEP}y.ts`]: 'old(2);\n', [`${DEEP}z.ts`]: 'old(3);\n', 'b.ts': 'old(4);\n' });
    const recipe = recipeFile(`name: deep
onError: continue
files: { include: ["${PATHOLOGICAL('x.ts')}", "${PATHOLOGICAL('y.ts')}", "b.ts"] }
deny: ["${PATHOLOGICAL('y.ts')}"]
groups:
  - { name: deep, include: ["${PATHOLOGICAL('*.ts')}"] }
steps:
  - replace: { old_string: "old(", new_string: "new(" }
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.stderr).not.toContain('internal error');
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.errors.map((e) => [e.file, e.kind])).toEqual([[`${DEEP}y.ts`, 'denied']]);
    expect(job.files.map((f) => [f.path, f.group])).toEqual([
      [`${DEEP}x.ts`, 'deep'],
      ['b.ts', 'rest'],
    ]);
  });

  it('the agent’s glob and grep tools answer a pathological pattern the model picked', async () => {
    const r = await repo({ [`${DEEP}x.ts`]: 'hello\n', [`${DEEP}y.md`]: 'hello\n' });
    const answers: { content: string; is_error?: boolean }[][] = [];
    const api = await fakeApi(
      scripted({
        job: [
          [
            tool('glob', { pattern: PATHOLOGICAL('*.ts') }),
            tool('grep', { pattern: 'hello', glob: PATHOLOGICAL('*.md') }),
            tool('glob', { pattern: '(a)\\1' }),
          ],
          (body) => {
            answers.push(toolResults(body));
            return done('Looked.');
          },
        ],
      }),
    );
    const recipe = recipeFile('name: agent-glob\nsteps:\n  - agent:\n      prompt: Look around\n      per: job\n');
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir, env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: api.url } });
    expect(res.stderr).not.toContain('internal error');
    expect((JSON.parse(res.stdout) as RunReport).jobs[0]!.status).toBe('empty');
    const [globbed, grepped, refused] = answers[0]!;
    expect(globbed!.content.trim()).toBe(`${DEEP}x.ts`);
    expect(grepped!.content.trim()).toBe(`${DEEP}y.md:1: hello`);
    expect(refused!.is_error).toBe(true);
    expect(refused!.content).toContain('back-reference');
  });

  it('a glob that cannot be bounded is a recipe problem: validate and run exit 2 naming it', async () => {
    const r = await repo({ 'a.ts': 'x\n' });
    const recipe = recipeFile('name: backref\nfiles: { include: ["(a)\\\\1"] }\nsteps:\n  - replace: { old_string: "x", new_string: "y" }\n');
    for (const args of [
      ['validate', recipe],
      ['run', recipe, '--repo', r.dir],
    ]) {
      const command = args[0];
      const res = await scion(args, { cwd: r.dir });
      expect(res.code, command).toBe(2);
      expect(res.stderr + res.stdout).toContain('back-reference');
    }
    expect(r.git('branch', '--list', 'scion/*')).toBe('');
  });
});
