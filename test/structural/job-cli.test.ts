// Structural steps inside the rest of a job's machinery, through the CLI: their changes are committed
// one commit per group like any step's; a binary file that carries a .js name is passed by (listed as
// skipped) by both steps while the others are rewritten; a jscodeshift step's `plan` prints its diff
// and writes nothing.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scion } from '../support/cli.js';
import { snapshot } from '../support/git-snapshot.js';
import { showBytes, structuralCli } from './cli-support.js';

const { run, repo, recipeDir } = structuralCli();

// A real jscodeshift transform (the API, not string edits): every identifier `oldName` is renamed.
const RENAME = [
  'module.exports = function rename(file, api) {',
  '  const j = api.jscodeshift;',
  '  const root = j(file.source);',
  "  const found = root.find(j.Identifier, { name: 'oldName' });",
  '  if (found.length === 0) return undefined;',
  "  found.forEach((p) => { p.node.name = 'newName'; });",
  '  return root.toSource();',
  '};',
  '',
].join('\n');

describe('structural steps in a job', () => {
  it("commit one commit per group, in the recipe's order, whichever step changed the file", async () => {
    const { code, job, r } = await run(
      {
        'web/a.js': 'console.log(1);\n',
        'web/b.jsx': 'export const v = oldName();\n',
        'api/c.ts': 'console.log(3);\n',
        'api/d.js': 'oldName(4);\n',
        'lib/e.js': 'console.log(5);\n',
      },
      [
        'name: grouped',
        'groups:',
        '  - { name: api, include: ["api/**"] }',
        '  - { name: web, include: ["web/**"] }',
        'steps:',
        '  - astgrep: { rule: { pattern: "console.log($$$A)" }, fix: "logger.info($$$A)" }',
        '  - jscodeshift: { transform: ./rename.cjs }',
        '',
      ].join('\n'),
      { 'rename.cjs': RENAME },
    );
    expect(code).toBe(0);
    expect(job.commits.map((c) => [c.group, c.files])).toEqual([
      ['api', ['api/c.ts', 'api/d.js']],
      ['web', ['web/a.js', 'web/b.jsx']],
      ['rest', ['lib/e.js']],
    ]);
    // Native git sees the same three commits, oldest first, each with its own files.
    const shas = r.git('rev-list', '--reverse', 'main..scion/grouped').split('\n');
    expect(shas.map((sha) => r.git('diff-tree', '--no-commit-id', '--name-only', '-r', sha).split('\n'))).toEqual([
      ['api/c.ts', 'api/d.js'],
      ['web/a.js', 'web/b.jsx'],
      ['lib/e.js'],
    ]);
    expect(showBytes(r, 'scion/grouped', 'api/d.js').toString()).toBe('newName(4);\n');
    expect(showBytes(r, 'scion/grouped', 'web/a.js').toString()).toBe('logger.info(1);\n');
    expect(job.files.map((f) => [f.path, f.group, f.matches])).toEqual([
      ['api/c.ts', 'api', 1],
      ['api/d.js', 'api', undefined],
      ['lib/e.js', 'rest', 1],
      ['web/a.js', 'web', 1],
      ['web/b.jsx', 'web', undefined],
    ]);
    r.git('fsck', '--strict');
  });

  it('a binary file with a .js name is passed by as binary by both steps, its bytes untouched; the others are rewritten', async () => {
    // NUL bytes around text both steps would otherwise change.
    const blob = Buffer.concat([Buffer.from('console.log(oldName);'), Buffer.from([0, 1, 2, 0xff, 0]), Buffer.from('oldName();\n')]);
    const { code, job, r } = await run(
      { 'lib/blob.js': blob, 'src/a.js': 'console.log(oldName);\n' },
      'name: blobs\nsteps:\n  - astgrep: { rule: { pattern: "console.log($$$A)" }, fix: "logger.info($$$A)" }\n  - jscodeshift: { transform: ./rename.cjs }\n',
      { 'rename.cjs': RENAME },
    );
    expect(code).toBe(0);
    expect(job.errors).toEqual([]);
    expect(job.skipped).toEqual([
      { step: 0, file: 'lib/blob.js', reason: 'binary' },
      { step: 1, file: 'lib/blob.js', reason: 'binary' },
    ]);
    expect(showBytes(r, 'scion/blobs', 'lib/blob.js')).toEqual(blob);
    expect(showBytes(r, 'scion/blobs', 'src/a.js').toString()).toBe('logger.info(newName);\n');
    expect(r.git('diff', '--name-only', 'main', 'scion/blobs')).toBe('src/a.js');
  });

  it('plan prints a jscodeshift diff and leaves .git byte-identical', async () => {
    const r = await repo({ 'src/a.js': 'const x = oldName();\nkeep();\n' });
    const before = snapshot(join(r.dir, '.git'));
    const res = await scion(
      ['plan', recipeDir('name: js\nsteps:\n  - jscodeshift: { transform: ./rename.cjs }\n', { 'rename.cjs': RENAME }), '--repo', r.dir],
      {
        cwd: r.dir,
      },
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('src/a.js  +1 -1');
    expect(res.stdout).toMatch(/-const x = oldName\(\);/);
    expect(res.stdout).toMatch(/\+const x = newName\(\);/);
    expect(snapshot(join(r.dir, '.git'))).toEqual(before);
  });
});
