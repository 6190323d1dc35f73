// A fresh tool context per conversation: its own read state and change record, the step's lock.
import type { Failure } from '../errors.js';
import { ReadStates } from './read-state.js';
import type { AgentRun } from './agent-run.js';
import type { ToolContext } from './tools/context.js';

export function toolContext(run: AgentRun, who: string, reads = new ReadStates()): ToolContext {
  return {
    files: run.files,
    reads,
    lock: run.lock,
    signal: run.signal,
    touched: new Map(),
    refused: (tool: string, path: string | null, f: Failure) => {
      run.refusedCalls++;
      const code = f.code === undefined ? '' : ` ${f.code}`;
      run.log(`agent: ${who}: refused ${tool}${path === null ? '' : ` on ${path}`} (${f.kind}${code}); the model was told why`);
    },
  };
}
