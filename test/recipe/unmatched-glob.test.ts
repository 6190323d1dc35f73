// A `files` glob that matches nothing is named, through the CLI: the job still ends `empty` (exit 0)
// or, with `expect`, `failed`, but the report and the summary say which glob found no file, so a typo
// is not read as "nothing left to change". A glob for files the job creates is not flagged.
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';

const repo = reposAfterEach();

describe('a files glob that matches nothing', () => {
  it('ends empty with exit 0, and the report and the summary name the glob', async () => {
    const r = await repo({ 'src/a.ts': 'old();\n', 'src/b.tsx': 'old();\n' });
    const recipe = recipeFile(`name: typo
files: { include: ["src/**/*.ts", "scr/**/*.tsx"] }
steps:
  - replace: { old_string: "gone(", new_string: "new(" }
`);
    const json = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(json.code).toBe(0);
    const job = (JSON.parse(json.stdout) as RunReport).jobs[0]!;
    expect(job.status).toBe('empty');
    expect(job.unmatched).toEqual(['scr/**/*.tsx']);

    const text = await scion(['run', recipe, '--repo', r.dir], { cwd: r.dir, env: { NO_COLOR: '1' } });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('files: "scr/**/*.tsx" matched no file');
  });

  it('with expect, fails as before and still names the glob; a job glob is named too', async () => {
    const r = await repo({ 'pkg/a/x.ts': 'old();\n' });
    const recipe = recipeFile(`name: typo
files: { include: ["pkg/**"] }
jobs:
  - { name: a, files: { include: ["pkg/a/**"] } }
  - { name: b, files: { include: ["pkg/b/**"] } }
steps:
  - replace: { old_string: "old(", new_string: "new(" }
    expect: { min: 1 }
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.code).toBe(1);
    const jobs = (JSON.parse(res.stdout) as RunReport).jobs;
    expect(jobs.map((j) => [j.name, j.status, j.unmatched ?? null])).toEqual([
      ['a', 'changed', null],
      ['b', 'failed', ['pkg/b/**']],
    ]);
  });

  it('does not flag a glob that only the files the job writes match', async () => {
    const r = await repo({ 'README.md': 'hi\n' });
    const recipe = recipeFile(`name: create
files: { include: ["docs/**/*.md"] }
steps:
  - write: { file: docs/new.md, content: "new\\n" }
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.code).toBe(0);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.status).toBe('changed');
    expect(job.unmatched).toBeUndefined();
  });
});
