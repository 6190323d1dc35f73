// The live view at 150 jobs, read through a small terminal emulator: the live area never grows past
// the terminal's height, each finished job is on the screen exactly once, the header says n/N,
// failures, elapsed time and ETA, and redraws are throttled (events do not draw).
import { describe, expect, it } from 'vitest';
import { LiveView } from '../../src/cli/live.js';
import type { JobReport } from '../../src/model/types.js';
import type { RunEvent } from '../../src/runner/types.js';
import { plainProgress } from '../../src/cli/progress.js';

/** Enough of a terminal for cursor-previous-line (`ESC[nF`) and erase-down (`ESC[0J`). */
class Screen {
  lines: string[] = [''];
  row = 0;
  write(s: string): void {
    for (const part of s.split(/(\x1b\[\d*[FJ]|\n)/)) {
      if (part === '') continue;
      if (part === '\n') {
        this.row += 1;
        if (this.row === this.lines.length) this.lines.push('');
      } else if (part.startsWith('\x1b[') && part.endsWith('F')) {
        this.row = Math.max(0, this.row - Number(part.slice(2, -1)));
      } else if (part === '\x1b[0J') {
        this.lines = this.lines.slice(0, this.row + 1);
        this.lines[this.row] = '';
      } else this.lines[this.row] += part;
    }
  }
}

const report = (name: string, status: JobReport['status']): JobReport => ({
  recipe: 'big',
  name,
  base: 'b'.repeat(40),
  branch: `scion/big/${name}`,
  status,
  head: null,
  worktree: null,
  commits: [],
  files: [],
  errors: status === 'failed' ? [{ step: 0, file: null, kind: 'not-found', message: 'x' }] : [],
  skipped: [],
  usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
  durationMs: 1,
});

function* run150(): Generator<RunEvent> {
  const names = Array.from({ length: 150 }, (_, i) => `pkg-${String(i).padStart(3, '0')}`);
  yield { type: 'jobs', jobs: names.map((n) => ({ id: `big/${n}`, recipe: 'big', name: n, branch: `scion/big/${n}`, steps: ['replace a', 'run b'] })) };
  // 8 at a time, as a queue of concurrency 8 would.
  for (let i = 0; i < names.length; i += 8) {
    const batch = names.slice(i, i + 8);
    for (const n of batch) yield { type: 'job-start', job: `big/${n}` };
    for (const n of batch) yield { type: 'step-start', job: `big/${n}`, step: 1, label: 'run b' };
    for (const n of batch) yield { type: 'job-end', job: `big/${n}`, report: report(n, n === 'pkg-007' ? 'failed' : 'changed') };
  }
}

describe('the live view', () => {
  it('at 150 jobs: bounded frame, each finished job once, header with n/N, failures, time, ETA', () => {
    const screen = new Screen();
    let t = 0;
    const rows = 12;
    const view = new LiveView({ write: (s) => screen.write(s), columns: 100, rows }, { timers: false, now: () => t });
    let frameMax = 0;
    let headers: string[] = [];
    let events = 0;
    for (const e of run150()) {
      view.onEvent(e);
      events += 1;
      t += 13;
      // A tick every 100 ms of the fake clock, as the interval would.
      if (events % 8 === 0) {
        view.tick();
        const frame = view.frame();
        frameMax = Math.max(frameMax, frame.length);
        headers.push(frame[0]!);
      }
    }
    view.stop();
    expect(frameMax).toBeLessThanOrEqual(rows - 2);
    const finished = screen.lines.filter((l) => / big\/pkg-\d{3}: /.test(l));
    expect(finished).toHaveLength(150);
    expect(new Set(finished).size).toBe(150);
    expect(screen.lines.filter((l) => l.startsWith('jobs '))).toEqual([]);
    expect(finished.find((l) => l.includes('pkg-007'))).toMatch(/^✖ big\/pkg-007: failed: /);
    headers = headers.filter((h) => h.includes('failed'));
    expect(headers.length).toBeGreaterThan(0);
    expect(headers[0]).toMatch(/^jobs \d+\/150 · 1 failed · \d+\.\d s · ETA \d+ s$/);
  });

  it('draws only on ticks: events change state, the throttle decides when to write', () => {
    let writes = 0;
    let t = 0;
    const view = new LiveView({ write: () => (writes += 1), columns: 80, rows: 30 }, { timers: false, now: () => t });
    for (const e of run150()) view.onEvent(e);
    expect(writes).toBe(0);
    view.tick();
    view.tick();
    expect(writes).toBe(1);
    t += 1000;
    view.tick();
    expect(writes).toBe(2);
    view.stop();
  });

  it('shows at most the rows the terminal has, and says how many more run', () => {
    const view = new LiveView({ write: () => undefined, columns: 60, rows: 10 }, { timers: false, now: () => 0 });
    const names = Array.from({ length: 40 }, (_, i) => `j${i}`);
    view.onEvent({ type: 'jobs', jobs: names.map((n) => ({ id: n, recipe: n, name: n, branch: n, steps: ['a'] })) });
    for (const n of names) view.onEvent({ type: 'job-start', job: n });
    const frame = view.frame();
    expect(frame).toHaveLength(7);
    expect(frame[0]).toBe('jobs 0/40 · 0.0 s');
    expect(frame.at(-1)).toBe('  … and 35 more running');
    for (const l of frame) expect(l.length).toBeLessThan(60);
    view.stop();
  });
});

describe('plain progress', () => {
  it('prefixes each line with [done/total]', () => {
    let text = '';
    const p = plainProgress({ stdout: { write: () => true }, stderr: { write: (s: string) => (text += s) }, env: {}, cwd: '/' });
    for (const e of run150()) p.onEvent(e);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('scion: 150 jobs');
    expect(lines[1]).toBe('[0/150] big/pkg-000: start');
    expect(lines.at(-1)).toMatch(/^\[150\/150\] big\/pkg-149: changed: /);
    expect(lines.slice(1).every((l) => /^\[\d+\/150\] /.test(l))).toBe(true);
  });
});
