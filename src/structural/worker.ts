// The child-process side of pool.ts: loads each program (or transform) once, then rewrites the files
// it is sent, one at a time. Everything crossing the process boundary is plain data (Node's
// "advanced" serialization carries the Uint8Arrays).
import { failure, fail, type Result } from '../errors.js';
import { onlyRules, rewriteFile, type AstgrepProgram } from './astgrep.js';
import { loadTransform, runTransformOn, type LoadedTransform } from './jscodeshift.js';
import { loadAstgrep } from './load.js';
import { loadNapi } from './napi.js';
import { searchFile } from './search.js';
import type { PoolRequest, PoolReply } from './pool-protocol.js';

const programs = new Map<string, Promise<AstgrepProgram | string>>();
const transforms = new Map<string, Promise<LoadedTransform | string>>();

async function handle(req: PoolRequest): Promise<Result<unknown>> {
  const { job, file } = req;
  if (job.kind === 'astgrep') {
    const key = JSON.stringify([job.source, job.fromDir]);
    let p = programs.get(key);
    if (!p) {
      p = loadAstgrep(job.source, { fromDir: job.fromDir }).then((l) => (l.ok ? l.value : l.error.map((x) => x.message).join('; ')));
      programs.set(key, p);
    }
    const program = await p;
    if (typeof program === 'string') return fail(failure('unsupported', `The astgrep rule could not be loaded in a worker: ${program}`));
    return rewriteFile(job.rules ? onlyRules(program, job.rules) : program, file);
  }
  if (job.kind === 'search') return searchFile(await loadNapi(), job.language, job.pattern, file);
  const key = JSON.stringify([job.specifier, job.fromDir]);
  let t = transforms.get(key);
  if (!t) {
    t = loadTransform(job.specifier, job.fromDir).then((l) => (l.ok ? l.value : l.error));
    transforms.set(key, t);
  }
  const transform = await t;
  if (typeof transform === 'string') return fail(failure('transform', transform));
  return runTransformOn(transform, file, { ...(job.parser ? { parser: job.parser } : {}), ...(job.options ? { options: job.options } : {}) });
}

const send = (reply: PoolReply): void => {
  process.send?.(reply);
};

// One file at a time, answered in the order asked: the pool times the file at the head of its queue.
let chain: Promise<void> = Promise.resolve();
process.on('message', (req: PoolRequest) => {
  chain = chain.then(() =>
    handle(req).then(
      (result) => send({ id: req.id, result }),
      // A bug or a broken environment (the native module failed): the caller reports it as such.
      (e: unknown) => send({ id: req.id, crash: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
    ),
  );
});
// The parent went away: nothing left to do.
process.on('disconnect', () => process.exit(0));
