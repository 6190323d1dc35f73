// `plan --patch` is a patch native `git apply` takes, `plan --stat` reads like `git diff --stat`,
// and people read 1-based step numbers.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scion } from '../support/cli.js';
import { reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import { snapshot } from '../support/git-snapshot.js';

const repo = reposAfterEach();

const FILES = {
  'packages/api/src/index.ts': "export const name = 'OLD-api';\nexport const x = 1;\n",
  'packages/web/src/index.ts': "export const name = 'OLD-web';",
  'packages/web/src/with space.ts': 'const a = "OLD-space";\n',
  'packages/zeta/README.md': 'zeta\n',
};
const RECIPE = `name: per-package
jobs:
  - each: "packages/*"
steps:
  - replace: { old_string: "OLD-", new_string: "NEW-" }
`;
const NEW_FILE = 'name: add-file\nsteps:\n  - write: { file: "packages/web/src/new.ts", content: "export {}\\n" }\n';

describe('plan --patch', () => {
  it('prints one patch of all jobs that git apply --check accepts and that makes what run commits', async () => {
    const r = await repo(FILES);
    const recipe = recipeFile(RECIPE);
    const second = recipeFile(NEW_FILE);
    const before = snapshot(join(r.dir, '.git'));
    const res = await scion(['plan', recipe, second, '--repo', r.dir, '--patch'], { cwd: r.dir });
    expect(res.code).toBe(0);
    expect(res.stdout).not.toMatch(/│|\x1b\[/);
    expect(res.stdout.startsWith('diff --git a/packages/api/src/index.ts b/packages/api/src/index.ts\n')).toBe(true);
    // The summary goes to stderr: stdout is the patch alone.
    expect(res.stderr).toContain('4 jobs: 3 changed, 1 empty');
    expect(snapshot(join(r.dir, '.git'))).toEqual(before);

    const patch = join(recipe, '..', 'all.patch');
    writeFileSync(patch, res.stdout);
    r.git('apply', '--check', patch);
    r.git('apply', '--index', patch);
    expect(r.git('diff', '--cached', '--name-only').split('\n')).toEqual([
      'packages/api/src/index.ts',
      'packages/web/src/index.ts',
      'packages/web/src/new.ts',
      'packages/web/src/with space.ts',
    ]);
    // The applied tree equals what `run` commits, job by job.
    r.git('stash', '-q');
    expect((await scion(['run', recipe, second, '--repo', r.dir], { cwd: r.dir })).code).toBe(0);
    r.git('stash', 'pop', '-q');
    r.git('add', '-A');
    for (const branch of ['scion/per-package/api', 'scion/per-package/web', 'scion/add-file']) {
      const files = r.git('diff', '--name-only', 'main', branch).split('\n');
      for (const f of files) expect(r.git('show', `:${f}`)).toBe(r.git('show', `${branch}:${f}`));
    }
  });

  it('keeps CRLF lines, a BOM and a missing final newline, writes new, deleted and mode-changed files as git does, and leaves UTF-16 out', async () => {
    const r = await repo({
      'crlf.txt': 'old a\r\nline 2\r\n',
      'bom.txt': '\uFEFFold bom\nx\n',
      'no-newline.txt': 'a\nold',
      'gone.txt': 'bye\n',
      'tool.sh': '#!/bin/sh\necho old\n',
      'u16.txt': Buffer.from('\uFEFFold\n', 'utf16le'),
    });
    r.git('update-index', '--chmod=+x', 'tool.sh');
    r.git('commit', '-qm', 'tool.sh is executable');
    r.git('checkout', '-q', '.');
    const recipe = recipeFile(
      'name: shapes\nsteps:\n  - replace: { old_string: "old", new_string: "new", replace_all: true }\n' +
        '  - run: "rm gone.txt && chmod -x tool.sh && printf \'#!/bin/sh\\\\n\' > new.sh && chmod +x new.sh"\n',
    );
    const res = await scion(['plan', recipe, '--repo', r.dir, '--patch'], { cwd: r.dir });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('u16.txt (shapes) has no text diff and is left out of the patch.');
    expect(res.stdout).toContain('-old a\r\n+new a\r\n line 2\r\n');
    expect(res.stdout).toContain('diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n');
    expect(res.stdout).toContain('diff --git a/new.sh b/new.sh\nnew file mode 100755\n');
    expect(res.stdout).toContain('diff --git a/tool.sh b/tool.sh\nold mode 100755\nnew mode 100644\n');
    const patch = join(recipe, '..', 'shapes.patch');
    writeFileSync(patch, res.stdout);
    r.git('apply', '--index', patch);
    // What git applied is what `run` commits (UTF-16 aside: the patch left it out).
    expect((await scion(['run', recipe, '--repo', r.dir], { cwd: r.dir })).code).toBe(0);
    expect(r.git('diff', '--cached', '--name-status', 'scion/shapes').split('\n')).toEqual(['M\tu16.txt']);
  });

  it('--stat prints git diff --stat lines per job', async () => {
    const r = await repo(FILES);
    const res = await scion(['plan', recipeFile(RECIPE), recipeFile(NEW_FILE), '--repo', r.dir, '--stat'], { cwd: r.dir });
    expect(res.code).toBe(0);
    const lines = res.stdout.split('\n');
    expect(lines[0]).toBe('per-package/api (scion/per-package/api)');
    expect(lines[1]).toMatch(/^ packages\/api\/src\/index\.ts +\| 2 \+-$/);
    expect(lines[2]).toBe(' 1 file changed, 1 insertion(+), 1 deletion(-)');
    expect(res.stdout).toContain(' 2 files changed, 2 insertions(+), 2 deletions(-)');
    expect(res.stdout).toMatch(/add-file \(scion\/add-file\)\n packages\/web\/src\/new\.ts \| 1 \+\n 1 file changed, 1 insertion\(\+\)\n/);
    expect(res.stdout).not.toContain('│');
  });
});

describe('step numbers people read', () => {
  it('are 1-based in the terminal summary, 0-based in the JSON report', async () => {
    const r = await repo({ 'a.txt': 'x x\n' });
    const recipe = recipeFile(
      'name: two\nsteps:\n  - replace: { old_string: "nothing", new_string: "y", replace_all: true }\n  - replace: { old_string: "x", new_string: "y" }\n',
    );
    const report = join(recipe, '..', 'r.json');
    const res = await scion(['plan', recipe, '--repo', r.dir, '--report', report], { cwd: r.dir });
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('not-unique (9) step 2, a.txt');
    const { readFileSync } = await import('node:fs');
    expect((JSON.parse(readFileSync(report, 'utf8')) as { jobs: { errors: { step: number }[] }[] }).jobs[0]!.errors[0]!.step).toBe(1);
  });
});
