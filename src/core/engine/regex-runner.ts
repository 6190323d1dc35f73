// Regular expressions in bounded time. V8's backtracking engine can take exponential time
// on patterns like (a+)+$, and a running match cannot be interrupted on the thread that runs it. So
// every user-supplied pattern runs in a worker thread with a deadline: past it the worker is
// terminated (the only way to stop a match) and the call answers `timeout`.
import { Worker } from 'node:worker_threads';
import { err, type Result } from '../../errors.js';

/** One match, as plain data that crosses the thread boundary. */
export interface RegexMatch {
  readonly index: number;
  /** [whole match, group 1, …]; undefined for a group that did not take part. */
  readonly groups: readonly (string | undefined)[];
  readonly named?: Readonly<Record<string, string | undefined>>;
}

/** Why a pattern gave no answer: it ran past its time, it was stopped, or it could not run (`message`). */
export interface RegexFailure {
  readonly reason: 'timeout' | 'aborted' | 'error';
  readonly message: string;
}

export type Bounded<T> = Result<T, RegexFailure>;

interface Ops {
  /** Does the pattern (flags as given) match anywhere? */
  test: boolean;
  /** Every match of the pattern (the `g` flag is added). */
  matches: RegexMatch[];
  /** 0-based numbers of the lines (split on \n) the pattern matches. */
  lines: number[];
}

// Plain JavaScript, evaluated in the worker: no file to resolve, so it works from src/ and dist/ alike.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => {
  try {
    let value;
    if (m.op === 'test') value = new RegExp(m.pattern, m.flags).test(m.text);
    else if (m.op === 'matches') {
      const re = new RegExp(m.pattern, m.flags.includes('g') ? m.flags : m.flags + 'g');
      value = [];
      for (const x of m.text.matchAll(re)) value.push({ index: x.index, groups: [...x], named: x.groups });
    } else {
      const re = new RegExp(m.pattern, m.flags.replace(/[gy]/g, ''));
      const lines = m.text.split('\\n');
      value = [];
      for (let i = 0; i < lines.length; i++) if (re.test(lines[i])) value.push(i);
    }
    parentPort.postMessage({ id: m.id, ok: true, value });
  } catch (e) {
    parentPort.postMessage({ id: m.id, ok: false, message: e && e.message ? e.message : String(e) });
  }
});
`;

interface Pending {
  resolve(r: Bounded<unknown>): void;
}

/**
 * A worker that runs regular expressions, one request at a time, each under its own deadline. A
 * timed-out or aborted request terminates the worker; the next request starts a fresh one. Owned
 * by one step (or one tool call): `close()` when done.
 */
export class RegexRunner {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  run<K extends keyof Ops>(op: K, pattern: string, flags: string, text: string, limitMs: number, signal?: AbortSignal): Promise<Bounded<Ops[K]>> {
    if (signal?.aborted) return Promise.resolve(err({ reason: 'aborted', message: 'aborted' }));
    if (limitMs <= 0) return Promise.resolve(err({ reason: 'timeout', message: 'no time left' }));
    const worker = this.start();
    const id = this.nextId++;
    worker.ref();
    return new Promise<Bounded<Ops[K]>>((resolve) => {
      const settle = (r: Bounded<unknown>, stop: boolean) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (stop) this.stop();
        else if (this.pending.size === 0) this.worker?.unref();
        resolve(r as Bounded<Ops[K]>);
      };
      const onAbort = () => settle(err({ reason: 'aborted', message: 'aborted' }), true);
      const timer = setTimeout(() => settle(err({ reason: 'timeout', message: `ran past ${limitMs} ms` }), true), limitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, { resolve: (r) => settle(r, false) });
      worker.postMessage({ id, op, pattern, flags, text });
    });
  }

  close(): void {
    this.stop();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(WORKER_SOURCE, { eval: true });
    w.on('message', (m: { id: number; ok: boolean; value?: unknown; message?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      p.resolve(m.ok ? { ok: true, value: m.value } : err({ reason: 'error', message: m.message ?? 'failed' }));
    });
    const lost = (why: string) => {
      if (this.worker !== w) return;
      this.worker = null;
      for (const p of [...this.pending.values()]) p.resolve(err({ reason: 'error', message: why }));
    };
    w.on('error', (e) => lost(e.message));
    w.on('exit', () => lost('the regular-expression worker stopped'));
    this.worker = w;
    return w;
  }

  private stop(): void {
    const w = this.worker;
    this.worker = null;
    if (w) void w.terminate();
    for (const p of [...this.pending.values()]) p.resolve(err({ reason: 'aborted', message: 'stopped' }));
  }
}

/** A match from the worker as the RegExpMatchArray that replacement expansion reads. */
export function toMatchArray(m: RegexMatch, input: string): RegExpMatchArray {
  const arr = [...m.groups] as unknown as RegExpMatchArray;
  arr.index = m.index;
  arr.input = input;
  arr.groups = m.named as Record<string, string> | undefined;
  return arr;
}
