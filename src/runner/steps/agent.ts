// `agent`: hands the model the job's files through the same gate and engine as every other step.
import { join } from 'node:path';
import { runAgentStep } from '../../agent/index.js';
import type { AgentStepConfig } from '../../agent/types.js';
import { hashBlob } from '../../git/index.js';
import { matcher } from '../../recipe/index.js';
import { failure, fail } from '../../errors.js';
import { engineOptions, guardPath, refuseLfs, reportError, type StepContext } from '../step-context.js';

export async function runAgent(ctx: StepContext, step: AgentStepConfig): Promise<void> {
  const narrow = step.files ? matcher({ include: step.files.include ?? ['**'], exclude: step.files.exclude ?? [] }) : () => true;
  // Git LFS pointers are refused as in every other step: found up front, so the model never sees one.
  const lfs = new Set<string>();
  for (const p of ctx.ws.paths()) {
    if (isRegularFile(ctx.ws.mode(p)) && ctx.selected(p) && narrow(p) && !refuseLfs(p, await ctx.ws.read(p)).ok) lfs.add(p);
  }
  const allowed = (p: string) => ctx.selected(p) && narrow(p) && !ctx.isDenied(p) && !lfs.has(p);
  const outcome = await runAgentStep(
    step,
    {
      root: ctx.ws.root,
      paths: () => ctx.ws.paths().filter((p) => allowed(p) && isRegularFile(ctx.ws.mode(p))),
      guard: (raw) => {
        const path = guardPath({ ...ctx, selected: (p) => ctx.selected(p) && narrow(p) }, raw);
        if (path.ok && lfs.has(path.value)) return fail(failure('unsupported', `${path.value} is a Git LFS pointer; scion never rewrites LFS files.`, { path: path.value }));
        return path;
      },
      read: (path) => ctx.ws.read(path),
      write: (path, bytes) => ctx.ws.write(path, bytes),
      engineOptions: (path) => engineOptions(ctx, path),
      blobId: hashBlob,
    },
    {
      env: ctx.run.env,
      cacheDir: join(ctx.gitDir, 'scion', 'agent-cache'),
      cacheReadOnly: ctx.dryRun,
      noCache: ctx.noCache,
      log: ctx.log,
      signal: ctx.signal,
      ...(ctx.run.redact ? { redact: ctx.run.redact } : {}),
    },
  );
  for (const e of outcome.errors) reportError(ctx, e.file, e.failure);
  ctx.addUsage(outcome.usage);
}

function isRegularFile(mode: string | undefined): boolean {
  return mode === '100644' || mode === '100755';
}
