// Every error kind a recipe can reach, each as a user would meet it, and the onError rules.
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { cleanupAfterEach } from '../support/cleanups.js';

const cleanups = cleanupAfterEach();

const FILES = {
  'src/a.ts': 'const a = 1;\nconst dup = 1;\nconst dup2 = dup;\n',
  'src/locked.ts': 'secret stuff\n',
  'src/bin.dat': new Uint8Array([0x61, 0x00, 0x62, 0x0a]),
  'src/latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]),
  'src/config.json': '{ "version": 1 }\n',
  'src/nb.ipynb': JSON.stringify({ cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 }),
  'src/link.ts': { content: 'a.ts', mode: 'symlink' as const },
};

// One step per kind, in this order; onError: continue lets every step run.
const STEPS: [string, string][] = [
  ['secret', '  - write: { file: src/token.ts, content: "export const t = \'ghp_0123456789abcdefghijABCDEFGHIJ012345\';\\n" }'],
  ['no-op', '  - edit: { file: src/a.ts, edits: [{ old_string: "const a", new_string: "const a" }] }'],
  ['denied', '  - edit: { file: src/locked.ts, edits: [{ old_string: "secret", new_string: "public" }] }'],
  ['unc-path', '  - edit: { file: "//server/share/a.ts", edits: [{ old_string: "x", new_string: "y" }] }'],
  ['outside', '  - edit: { file: "../escape.ts", edits: [{ old_string: "x", new_string: "y" }] }'],
  ['binary', '  - edit: { file: src/bin.dat, edits: [{ old_string: "a", new_string: "c" }] }'],
  ['encoding', '  - edit: { file: src/latin1.txt, edits: [{ old_string: "caf", new_string: "bar" }] }'],
  ['file-missing', '  - edit: { file: src/nope.ts, edits: [{ old_string: "x", new_string: "y" }] }'],
  ['file-exists', '  - edit: { file: src/a.ts, edits: [{ old_string: "", new_string: "new file" }] }'],
  ['notebook', '  - edit: { file: src/nb.ipynb, edits: [{ old_string: "cells", new_string: "cellz" }] }'],
  ['not-found', '  - edit: { file: src/a.ts, edits: [{ old_string: "function handleError()", new_string: "function processError()" }] }'],
  ['not-unique', '  - edit: { file: src/a.ts, edits: [{ old_string: "dup", new_string: "twin" }] }'],
  [
    'cascade',
    '  - edit: { file: src/a.ts, edits: [{ old_string: "const a = 1;", new_string: "const a = 1; // was b()" }, { old_string: "b()", new_string: "c()" }] }',
  ],
  ['invalid-result', '  - edit: { file: src/config.json, edits: [{ old_string: "\\"version\\": 1", new_string: "\\"version\\": 1," }] }'],
  ['unsupported', '  - edit: { file: src/link.ts, edits: [{ old_string: "a", new_string: "b" }] }'],
  ['command-failed', '  - run: "echo broken >&2; exit 7"'],
];

describe('error kinds', () => {
  it('each kind is reported with its step, file and seed code, and nothing is half-applied', async () => {
    const r = await gitRepo(FILES);
    cleanups.push(r.cleanup);
    const recipe = recipeFile(`name: kinds\nonError: continue\ndeny: ["src/locked.ts"]\nsteps:\n${STEPS.map(([, s]) => s).join('\n')}\n`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.stderr).not.toContain('internal error');
    expect(res.code).toBe(1);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.status).toBe('failed');
    expect(job.errors.map((e) => [e.step, e.kind])).toEqual(STEPS.map(([kind], i) => [i, kind]));
    const codes = Object.fromEntries(job.errors.map((e) => [e.kind, e.code]));
    expect(codes).toMatchObject({ secret: 0, 'no-op': 1, denied: 2, 'file-exists': 3, 'file-missing': 4, notebook: 5, 'not-found': 8, 'not-unique': 9 });
    expect(job.errors.find((e) => e.kind === 'not-unique')!.message).toMatch(/3 matches|found 3/i);
    expect(job.errors.find((e) => e.kind === 'not-found')!.message).toContain('function handleError()');
    // Nothing changed, so nothing was committed.
    expect(job.files).toEqual([]);
    expect(r.git('branch', '--list', 'scion/*')).toBe('');
  });

  it('onError: stop ends the job at the failed step, drops that step whole and commits the earlier ones', async () => {
    const r = await gitRepo({ 'a.txt': 'one\n', 'b.txt': 'two two\n', 'c.txt': 'two\n' });
    cleanups.push(r.cleanup);
    const recipe = recipeFile(`name: stopper
steps:
  - edit: { file: a.txt, edits: [{ old_string: one, new_string: uno }] }
  - replace: { old_string: two, new_string: dos }
  - edit: { file: a.txt, edits: [{ old_string: uno, new_string: eins }] }
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.code).toBe(1);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.status).toBe('failed');
    expect(job.errors.map((e) => [e.step, e.file, e.kind])).toEqual([[1, 'b.txt', 'not-unique']]);
    // Step 1 is dropped whole (c.txt untouched too), step 2 never ran.
    expect(job.files.map((f) => f.path)).toEqual(['a.txt']);
    expect(r.git('show', 'scion/stopper:a.txt')).toBe('uno');
    expect(r.git('show', 'scion/stopper:c.txt')).toBe('two');
  });

  it('onError: continue keeps the files a failed step could change and runs the rest', async () => {
    const r = await gitRepo({ 'a.txt': 'one\n', 'b.txt': 'two two\n', 'c.txt': 'two\n' });
    cleanups.push(r.cleanup);
    const recipe = recipeFile(`name: goon
onError: continue
steps:
  - replace: { old_string: two, new_string: dos }
  - edit: { file: a.txt, edits: [{ old_string: one, new_string: uno }] }
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.code).toBe(1);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.files.map((f) => f.path)).toEqual(['a.txt', 'c.txt']);
    expect(r.git('show', 'scion/goon:b.txt')).toBe('two two');
  });
});
