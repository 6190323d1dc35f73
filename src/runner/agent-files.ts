// What a conversation with the model gets from the job: its files through the same gate and engine
// as every other step, and the environment for the response cache. The `agent` step and the verify
// fix rounds share it, so the model sees and may change the same files either way.
import { join } from 'node:path';
import { configFilesOf, DEFAULT_GUARDS } from '../agent/guards/index.js';
import type { AgentEnv, AgentFiles } from '../agent/types.js';
import { failure, fail } from '../errors.js';
import { hashBlob } from '../git/index.js';
import { engineOptions, guardPath, refuseLfs, type StepContext } from './step-context.js';

/** The job's selection, narrowed by `narrow`, minus deny; Git LFS pointers found up front and refused, so the model never sees one. */
export async function agentFiles(ctx: StepContext, narrow: (path: string) => boolean = () => true): Promise<AgentFiles> {
  const lfs = new Set<string>();
  for (const p of ctx.ws.paths()) {
    if (isRegularFile(ctx.ws.mode(p)) && ctx.selected(p) && narrow(p) && !refuseLfs(p, await ctx.ws.read(p)).ok) lfs.add(p);
  }
  const allowed = (p: string) => ctx.selected(p) && narrow(p) && !ctx.isDenied(p) && !lfs.has(p);
  return {
    root: ctx.ws.root,
    paths: () => ctx.ws.paths().filter((p) => allowed(p) && isRegularFile(ctx.ws.mode(p))),
    guard: (raw) => {
      const path = guardPath({ ...ctx, selected: (p) => ctx.selected(p) && narrow(p) }, raw);
      if (path.ok && lfs.has(path.value))
        return fail(failure('unsupported', `${path.value} is a Git LFS pointer; scion never rewrites LFS files.`, { path: path.value }));
      return path;
    },
    read: (path) => ctx.ws.read(path),
    write: (path, bytes) => ctx.ws.write(path, bytes),
    engineOptions: (path) => engineOptions(ctx, path),
    blobId: hashBlob,
    guards: { ...DEFAULT_GUARDS, ...ctx.recipe.guards, configFiles: ctx.recipe.verify.flatMap((v) => configFilesOf(v.run)) },
  };
}

export function agentEnv(ctx: StepContext): AgentEnv {
  return {
    env: ctx.run.env,
    cacheDir: join(ctx.gitDir, 'scion', 'agent-cache'),
    cacheReadOnly: ctx.dryRun,
    noCache: ctx.noCache,
    log: ctx.log,
    signal: ctx.signal,
    ...(ctx.run.redact ? { redact: ctx.run.redact } : {}),
    ...(ctx.run.budget ? { budget: ctx.run.budget } : {}),
    ...(ctx.estimate ? { estimate: true } : {}),
  };
}

function isRegularFile(mode: string | undefined): boolean {
  return mode === '100644' || mode === '100755';
}
