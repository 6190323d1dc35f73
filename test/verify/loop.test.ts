// The verify/fix loop with its I/O passed in: a command that fails until a marker is in the file.
import { describe, expect, it } from 'vitest';
import { failure } from '../../src/errors.js';
import { changesBetween } from '../../src/verify/changes-between.js';
import { verifyWithFix, type FailedRun, type LoopIO } from '../../src/verify/loop.js';
import { parseDiagnostics } from '../../src/verify/diagnostics.js';

const USAGE = { inputTokens: 10, outputTokens: 2, costUsd: 0.01 };

function world(fixesNeeded: number, opts: { stopped?: boolean; fix?: boolean } = {}) {
  const files = { marks: 0 };
  const seen: FailedRun[] = [];
  let runs = 0;
  const io: LoopIO = {
    exec: async () => {
      runs++;
      return files.marks >= fixesNeeded
        ? { status: 0, signal: null, output: '' }
        : { status: 1, signal: null, output: `src/a.ts(${runs},1): error TS1: still broken (run ${runs})\n` };
    },
    diagnostics: (out) => parseDiagnostics(out, { cwd: '/r', root: '/r' }),
    ...(opts.fix === false
      ? {}
      : {
          fix: async (_round: number, failed: FailedRun) => {
            seen.push(failed);
            files.marks++;
            return opts.stopped === false
              ? { stopped: false, usage: USAGE, errors: [{ file: null, failure: failure('agent', 'out of turns') }] }
              : { stopped: true, usage: USAGE, errors: [] };
          },
        }),
  };
  return { io, seen, runs: () => runs };
}

describe('verifyWithFix', () => {
  it('passes at once: no round', async () => {
    const w = world(0);
    expect(await verifyWithFix('tsc', 2, w.io)).toMatchObject({ passed: true, rounds: 0, diagnostics: [] });
    expect(w.runs()).toBe(1);
  });

  it('fixes within maxRounds: each round sees the last run’s diagnostics, usage is summed', async () => {
    const w = world(2);
    const r = await verifyWithFix('tsc', 3, w.io);
    expect(r).toMatchObject({ passed: true, rounds: 2, diagnostics: [], usage: { inputTokens: 20, outputTokens: 4 } });
    expect(w.runs()).toBe(3);
    expect(w.seen.map((f) => [f.command, f.status, f.diagnostics[0]!.message])).toEqual([
      ['tsc', 1, 'still broken (run 1)'],
      ['tsc', 1, 'still broken (run 2)'],
    ]);
  });

  it('gives up after maxRounds with the last run’s diagnostics', async () => {
    const w = world(5);
    const r = await verifyWithFix('tsc', 2, w.io);
    expect(r).toMatchObject({ passed: false, rounds: 2, last: { status: 1 } });
    expect(r.diagnostics.map((d) => [d.file, d.line, d.message])).toEqual([['src/a.ts', 3, 'still broken (run 3)']]);
  });

  it('stops after a conversation that failed (its edits still get one more run)', async () => {
    const w = world(1, { stopped: false });
    const r = await verifyWithFix('tsc', 3, w.io);
    expect(r).toMatchObject({ passed: true, rounds: 1 });
    expect(r.fixErrors[0]!.failure.kind).toBe('agent');
    const w2 = world(5, { stopped: false });
    expect(await verifyWithFix('tsc', 3, w2.io)).toMatchObject({ passed: false, rounds: 1 });
  });

  it('without fix, a failure is final', async () => {
    const w = world(1, { fix: false });
    expect(await verifyWithFix('tsc', 3, w.io)).toMatchObject({ passed: false, rounds: 0 });
    expect(w.runs()).toBe(1);
  });
});

describe('changesBetween', () => {
  const s = (t: string, mode = '100644') => ({ bytes: Buffer.from(t), mode });
  it('is what the fix changed on top of the steps, a file put back to its base included', async () => {
    const base = new Map([
      ['c.ts', s('c0')],
      ['d.ts', s('d0')],
    ]);
    const before = new Map([
      ['a.ts', s('a1')],
      ['b.ts', s('b1')],
      ['c.ts', s('c1')],
    ]);
    const after = new Map([
      ['a.ts', s('a1')],
      ['b.ts', s('b2')],
      ['d.ts', null],
      ['e.ts', s('e2', '100755')],
    ]);
    const out = await changesBetween(before, after, async (p) => base.get(p) ?? null);
    expect([...out].map(([p, st]) => [p, st === null ? null : Buffer.from(st.bytes).toString()])).toEqual([
      ['b.ts', 'b2'],
      ['c.ts', 'c0'],
      ['d.ts', null],
      ['e.ts', 'e2'],
    ]);
  });
});
