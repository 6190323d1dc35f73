// Structural edits in child processes: a small pool of them, each holding the step's engine (the
// ast-grep program or the jscodeshift transform) and rewriting one file at a time.
//
// Two reasons. Parsing is most of the cost of a structural step, and the children parse in parallel.
// And one file can take unbounded time (a 5 MB minified bundle under a rule with `stopBy: end`, a
// transform that loops): napi's native calls cannot be interrupted, not even by terminating a worker
// thread (the thread runs on until the call returns, holding a core and keeping the process alive).
// A process can be killed. So each file runs under the caller's deadline and signal; past it the
// child is killed, the file answers `timeout` (or `interrupted`) at once, and the next file gets a
// fresh child.
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { FROM_SOURCE, ownModule } from '../util/own-files.js';
import { failure, fail, type Failure, type Result } from '../errors.js';
import type { FileOutcome } from './astgrep.js';
import type { TransformOutcome } from './jscodeshift.js';
import type { SearchHit } from './search.js';
import type { PoolFile, PoolJob, PoolReply, PoolRequest } from './pool-protocol.js';

export type { PoolFile, PoolJob } from './pool-protocol.js';

export interface RunLimits {
  /** Past this many milliseconds the file answers `timeout`. */
  readonly timeoutMs?: number;
  /** Aborted: the file answers `interrupted`. */
  readonly signal?: AbortSignal;
}

export type PoolOutcome<J extends PoolJob> = J extends { kind: 'astgrep' } ? FileOutcome : J extends { kind: 'search' } ? SearchHit[] : TransformOutcome;

interface Pending {
  readonly request: PoolRequest;
  readonly limits: RunLimits;
  settle(r: Result<unknown> | Error): void;
  /** Removes the abort listener once the request is settled. */
  unlisten?: () => void;
}

interface Slot {
  child: ChildProcess | null;
  /** Sent to the child, in order: the first is running, the others wait in the child's queue. */
  readonly inflight: Pending[];
  /** The running request's deadline. */
  timer: NodeJS.Timeout | null;
}

/**
 * Requests sent ahead to each child: while the parent is busy or descheduled, the child goes on
 * with the next file instead of waiting for a round trip.
 */
const DEPTH = 3;

export class StructuralPool {
  private readonly slots: Slot[];
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private closed = false;

  /** `size`: child processes (default: the machine's cores, at most 4). */
  constructor(size = Math.min(4, availableParallelism())) {
    this.slots = Array.from({ length: Math.max(1, size) }, () => ({ child: null, inflight: [], timer: null }));
  }

  /** Rewrites one file in a child. Timeouts and aborts are Failure values; only a crashed child throws. */
  run<J extends PoolJob>(job: J, file: PoolFile, limits: RunLimits = {}): Promise<Result<PoolOutcome<J>>> {
    if (this.closed) return Promise.reject(new Error('the structural pool is closed'));
    if (limits.signal?.aborted) return Promise.resolve(fail(interrupted(file.path)));
    return new Promise((resolve, reject) => {
      const p: Pending = {
        request: { id: this.nextId++, job, file },
        limits,
        settle: (r) => {
          p.unlisten?.();
          if (r instanceof Error) reject(r);
          else resolve(r as Result<PoolOutcome<J>>);
        },
      };
      const signal = limits.signal;
      if (signal) {
        const onAbort = () => this.abort(p);
        signal.addEventListener('abort', onAbort, { once: true });
        p.unlisten = () => signal.removeEventListener('abort', onAbort);
      }
      this.queue.push(p);
      this.pump();
    });
  }

  /** Stops every child; files not finished answer `interrupted`. */
  close(): void {
    this.closed = true;
    const left = [...this.queue.splice(0), ...this.slots.flatMap((s) => s.inflight.splice(0))];
    for (const s of this.slots) this.kill(s);
    for (const p of left) p.settle(fail(interrupted(p.request.file.path)));
  }

  /** Hands queued files to the least busy children first, so that every child starts working early. */
  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.reduce((a, b) => (b.inflight.length < a.inflight.length ? b : a));
      if (slot.inflight.length >= DEPTH) break;
      const p = this.queue.shift() as Pending;
      const child = (slot.child ??= this.spawn(slot));
      slot.inflight.push(p);
      child.send(p.request);
      if (slot.inflight.length === 1) this.arm(slot);
    }
    for (const slot of this.slots) if (slot.child) hold(slot.child, slot.inflight.length > 0);
  }

  /** Starts the deadline of the request the child is running now. */
  private arm(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const head = slot.inflight[0];
    const ms = head?.limits.timeoutMs;
    if (!head || ms === undefined) return;
    slot.timer = setTimeout(
      () => {
        if (slot.inflight[0] !== head) return;
        this.restart(slot, head);
        head.settle(fail(timedOut(head.request.file.path, ms)));
      },
      Math.max(0, ms),
    );
  }

  /** An aborted request answers at once; its child is killed if it holds it (running or queued). */
  private abort(p: Pending): void {
    const queued = this.queue.indexOf(p);
    if (queued !== -1) this.queue.splice(queued, 1);
    else {
      const slot = this.slots.find((s) => s.inflight.includes(p));
      if (slot) this.restart(slot, p);
    }
    p.settle(fail(interrupted(p.request.file.path)));
  }

  /** Kills the slot's child; what it held besides `drop` goes back to the front of the queue. */
  private restart(slot: Slot, drop: Pending): void {
    const others = slot.inflight.splice(0).filter((x) => x !== drop);
    this.kill(slot);
    this.queue.unshift(...others);
    this.pump();
  }

  private kill(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const c = slot.child;
    slot.child = null;
    c?.kill('SIGKILL');
  }

  private spawn(slot: Slot): ChildProcess {
    const child = childProcess();
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    child.on('message', (m: PoolReply) => {
      const head = slot.inflight[0];
      if (slot.child !== child || !head || head.request.id !== m.id) return;
      slot.inflight.shift();
      this.arm(slot);
      head.settle('crash' in m ? new Error(`the structural worker failed on ${head.request.file.path}: ${m.crash}`) : m.result);
      this.pump();
    });
    child.on('exit', (code, sig) => {
      if (slot.child !== child) return;
      const head = slot.inflight[0];
      if (head) this.restart(slot, head);
      else this.kill(slot);
      const why = `${sig ?? `exit code ${code}`}${stderr ? `: ${stderr.trim()}` : ''}`;
      head?.settle(new Error(`the structural worker stopped (${why}) while rewriting ${head.request.file.path}`));
    });
    return child;
  }
}

/** An idle child must not keep the parent alive; a busy one must. */
function hold(child: ChildProcess, busy: boolean): void {
  const channel = child.channel as { ref(): void; unref(): void } | null | undefined;
  if (busy) {
    child.ref();
    channel?.ref();
  } else {
    child.unref();
    channel?.unref();
  }
}

/** The bundle's dist/structural/worker.js; from the TypeScript sources (tests), worker.ts through tsx. */
function childProcess(): ChildProcess {
  return fork(ownModule('structural/worker'), [], {
    serialization: 'advanced',
    execArgv: FROM_SOURCE ? ['--import', 'tsx'] : [],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
}

function timedOut(path: string, ms: number): Failure {
  return failure('timeout', `Rewriting ${path} ran past ${ms} ms; the file was left as it was.`, { path, timeoutMs: ms });
}

function interrupted(path: string): Failure {
  return failure('interrupted', `The step was stopped before ${path} was rewritten; the file was left as it was.`, { path });
}
