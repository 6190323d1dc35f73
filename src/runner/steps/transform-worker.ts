// A module recipe's transform, run where it can be stopped. A transform is the user's own code: a
// synchronous `for(;;){}` never yields, so no timer and no signal handler on its thread can ever run
// again. So it runs in a worker thread, which imports the recipe module itself, the same way the
// recipe was loaded (recipe/load-module.ts, through tsx), and calls the same step's transform, one
// file per message. At the step's deadline, or on an interrupt, the worker is terminated (V8 stops
// even a spinning loop). `process.exit()` inside a transform ends only the worker: that is an answer
// here (`exited`), never a silent end of scion.
import { Worker } from 'node:worker_threads';
import { loaderUrls, type TransformOrigin } from '../../recipe/index.js';

/** What a transform answered for one file. */
export type TransformReply =
  | { readonly kind: 'value'; readonly value: string | null }
  /** It returned something that is neither a string nor undefined/null: described, as it cannot cross threads. */
  | { readonly kind: 'invalid'; readonly what: string }
  | { readonly kind: 'threw'; readonly message: string }
  /** The module could not be loaded again, or its step no longer holds a transform. */
  | { readonly kind: 'load-failed'; readonly message: string }
  /** The worker ended (process.exit, an error thrown outside the call) before answering. */
  | { readonly kind: 'exited'; readonly message: string }
  /** The signal fired: the worker was terminated. */
  | { readonly kind: 'stopped' };

// Plain JavaScript evaluated in the worker (no file to resolve, so it runs from src/ and dist/ alike).
// tsx comes as the loader module resolved it, never from the user's current directory.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const describe = (v) => Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : 'a ' + typeof v + ' (' + String(v).slice(0, 40) + ')';
const message = (e) => (e instanceof Error ? e.message : String(e));
const ready = (async () => {
  const { tsImport } = await import(workerData.tsx);
  const loader = await tsImport(workerData.loader, { parentURL: workerData.loader });
  const loaded = await loader.importDefault(workerData.file);
  if (!loaded.ok) return { failed: loaded.message };
  const step = loaded.value && Array.isArray(loaded.value.steps) ? loaded.value.steps[workerData.index] : undefined;
  if (!step || typeof step.transform !== 'function') return { failed: 'its step ' + workerData.index + ' no longer holds a transform function' };
  return { fn: step.transform };
})().catch((e) => ({ failed: message(e) }));
parentPort.on('message', async (m) => {
  const { fn, failed } = await ready;
  if (failed !== undefined) {
    parentPort.postMessage({ id: m.id, kind: 'load-failed', message: failed });
    return;
  }
  try {
    const v = await fn({ path: m.path, content: m.content });
    if (v === undefined || v === null) parentPort.postMessage({ id: m.id, kind: 'value', value: null });
    else if (typeof v === 'string') parentPort.postMessage({ id: m.id, kind: 'value', value: v });
    else parentPort.postMessage({ id: m.id, kind: 'invalid', what: describe(v) });
  } catch (e) {
    parentPort.postMessage({ id: m.id, kind: 'threw', message: message(e) });
  }
});
`;

/** One step's worker: started on the first call, restarted after it ended, terminated by `close()` or the signal. */
export class TransformWorker {
  private worker: Worker | null = null;
  private nextId = 0;
  private pending: { id: number; resolve: (r: TransformReply) => void } | null = null;

  constructor(
    private readonly origin: TransformOrigin,
    private readonly signal: AbortSignal,
    /** What the transform prints (console.log) comes here, line by line, instead of scion's own output. */
    private readonly print: (line: string) => void,
  ) {}

  call(path: string, content: string): Promise<TransformReply> {
    if (this.signal.aborted) return Promise.resolve({ kind: 'stopped' });
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<TransformReply>((resolve) => {
      const onAbort = () => {
        this.stop();
      };
      this.signal.addEventListener('abort', onAbort, { once: true });
      this.pending = {
        id,
        resolve: (r) => {
          this.signal.removeEventListener('abort', onAbort);
          this.pending = null;
          resolve(r);
        },
      };
      worker.postMessage({ id, path, content });
    });
  }

  close(): void {
    this.stop();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { ...loaderUrls(), file: this.origin.file, index: this.origin.index },
      stdout: true,
      stderr: true,
    });
    for (const stream of [w.stdout, w.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) if (line.trim() !== '') this.print(line);
      });
    }
    w.on('message', (m: TransformReply & { id: number }) => {
      if (this.pending?.id === m.id) this.pending.resolve(m);
    });
    const lost = (why: string) => {
      if (this.worker !== w) return;
      this.worker = null;
      this.pending?.resolve(this.signal.aborted ? { kind: 'stopped' } : { kind: 'exited', message: why });
    };
    w.on('error', (e) => lost(`failed outside its call (${e.message})`));
    w.on('exit', (code) => lost(`ended its worker with process.exit(${code})`));
    this.worker = w;
    return w;
  }

  private stop(): void {
    const w = this.worker;
    this.worker = null;
    if (w) void w.terminate();
    this.pending?.resolve({ kind: 'stopped' });
  }
}
