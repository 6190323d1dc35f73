// The pool of child processes: the same results as in process, in parallel, for both engines; and
// a deadline that holds against a transform that never returns.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rewriteFile } from '../../src/structural/astgrep.js';
import { loadTransform, runTransformOn } from '../../src/structural/jscodeshift.js';
import { loadAstgrep, type AstgrepSource } from '../../src/structural/load.js';
import { StructuralPool } from '../../src/structural/pool.js';
import { ROOT, utf8 } from './oracle.js';

const CONFORMANCE = join(ROOT, 'test', 'structural', 'fixtures', 'conformance');
const dir = mkdtempSync(join(tmpdir(), 'scion-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
writeFileSync(join(dir, 'loops.js'), 'export default function () { for (;;) {} }');
writeFileSync(join(dir, 'exits.js'), 'export default function () { process.exit(3); }');
writeFileSync(
  join(dir, 'upper.js'),
  'export default (file, api) => api.j(file.source).find(api.j.Identifier).forEach((p) => { p.node.name = p.node.name.toUpperCase(); }).toSource();',
);
const job = (specifier: string) => ({ kind: 'jscodeshift' as const, specifier, fromDir: dir });

describe('StructuralPool', () => {
  it('rewrites files in parallel with exactly the in-process results', async () => {
    const source: AstgrepSource = { kind: 'inline', step: { rule: { pattern: 'console.$M($$$A)' }, fix: 'logger.$M($$$A)' } };
    const l = await loadAstgrep(source, { fromDir: ROOT });
    if (!l.ok) throw new Error(JSON.stringify(l.error));
    const files = readdirSync(CONFORMANCE).map((f) => ({ path: f, bytes: readFileSync(join(CONFORMANCE, f)) }));
    const pool = new StructuralPool(2);
    try {
      const pooled = await Promise.all(files.map((f) => pool.run({ kind: 'astgrep', source, fromDir: ROOT }, f)));
      const local = files.map((f) => rewriteFile(l.value, f));
      expect(pooled).toEqual(local);
      expect(pooled.filter((r) => r.ok && r.value.status === 'changed').length).toBeGreaterThan(3);
    } finally {
      pool.close();
    }
  });

  it('runs jscodeshift transforms with the in-process result', async () => {
    const t = await loadTransform('./upper.js', dir);
    if (!t.ok) throw new Error(t.error);
    const file = { path: 'a.js', bytes: utf8('const a = b;\n') };
    const pool = new StructuralPool(1);
    try {
      const r = await pool.run(job('./upper.js'), file);
      expect(r).toEqual(await runTransformOn(t.value, file));
      expect(r.ok && r.value.status === 'changed' && r.value.newText).toBe('const A = B;\n');
    } finally {
      pool.close();
    }
  });

  it('a transform that never returns answers `timeout`; other files still run', async () => {
    const pool = new StructuralPool(1);
    try {
      const loops = pool.run(job('./loops.js'), { path: 'a.js', bytes: utf8('x;\n') }, { timeoutMs: 1000 });
      // Sent to the same child behind the stuck one: moved to a fresh child when the first is killed.
      const after = pool.run(job('./upper.js'), { path: 'b.js', bytes: utf8('b;\n') }, { timeoutMs: 30_000 });
      const [r1, r2] = await Promise.all([loops, after]);
      expect(!r1.ok && r1.error.kind).toBe('timeout');
      expect(r2.ok && r2.value.status === 'changed' && r2.value.newText).toBe('B;\n');
    } finally {
      pool.close();
    }
  });

  it('a child that dies is an error for its file only', async () => {
    const pool = new StructuralPool(1);
    try {
      await expect(pool.run(job('./exits.js'), { path: 'a.js', bytes: utf8('x;\n') })).rejects.toThrow(/exit code 3/);
      const next = await pool.run(job('./upper.js'), { path: 'b.js', bytes: utf8('b;\n') });
      expect(next.ok && next.value.status).toBe('changed');
    } finally {
      pool.close();
    }
  });

  it('close() answers the files still waiting with `interrupted`', async () => {
    const pool = new StructuralPool(1);
    const runs = [0, 1, 2, 3, 4].map((i) => pool.run(job('./loops.js'), { path: `f${i}.js`, bytes: utf8('x;\n') }));
    setTimeout(() => pool.close(), 200);
    const results = await Promise.all(runs);
    expect(results.map((r) => !r.ok && r.error.kind)).toEqual(Array(5).fill('interrupted'));
  });
});
