// Storing a finished conversation, and replaying a stored one. A replay writes through files.write
// like any edit, after the engine has checked the write against the file's current bytes; if any file
// is not exactly as the conversation found it, nothing is written and the model is asked again.
import { writeContent } from '../core/index.js';
import type { CacheEntry, CachedChange } from './cache.js';
import type { Conversation } from './conversation.js';
import { rawText } from './raw-text.js';
import type { AgentRun } from './agent-run.js';
import { resolvePath } from './tools/paths.js';

/** True when the entry was applied; false (nothing written) when it no longer fits the files. */
export async function replay(run: AgentRun, entry: CacheEntry): Promise<boolean> {
  const { files } = run;
  return run.lock.run(async () => {
    const planned: { path: string; bytes: Uint8Array }[] = [];
    for (const c of entry.changes) {
      const guarded = resolvePath(files, c.path);
      if (!guarded.ok) return miss(run, c, guarded.error.message);
      const path = guarded.value;
      const current = await files.read(path);
      if ((current === null ? null : files.blobId(current)) !== c.before) return miss(run, c, 'the file changed since');
      const result = writeContent({ path, bytes: current }, c.content, files.engineOptions(path));
      if (!result.ok) return miss(run, c, result.error.message);
      if (files.blobId(result.value.after) !== c.after) return miss(run, c, 'the stored result no longer reproduces');
      // An answer stored before these guards held (or under a recipe that relaxed them) is asked again.
      const refused = await run.guards.vet({ path, before: current, after: result.value.after });
      if (refused) return miss(run, c, `a guard refuses it: ${refused.message}`);
      planned.push({ path, bytes: result.value.after });
    }
    for (const p of planned) await files.write(p.path, p.bytes);
    return true;
  });
}

function miss(run: AgentRun, c: CachedChange, why: string): false {
  run.log(`agent: cached answer for ${c.path} not replayed (${why}); asking the model again`);
  return false;
}

/** The cache entry of a conversation that finished: the final bytes of every file it changed. */
export async function entryOf(run: AgentRun, conv: Conversation): Promise<CacheEntry | null> {
  const changes: CachedChange[] = [];
  for (const [path, before] of [...conv.init.tools.touched].sort(([a], [b]) => a.localeCompare(b))) {
    const after = await run.files.read(path);
    const content = after === null ? null : rawText(after);
    if (after === null || content === null) return null;
    changes.push({ path, before, after: run.files.blobId(after), content });
  }
  return { version: 1, model: run.model, per: run.step.per, file: conv.file, changes, usage: conv.usage.toUsage() };
}
