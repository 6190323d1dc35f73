// A fresh tool context per conversation: its own read state and change record, the step's lock.
import type { Failure } from '../errors.js';
import { ReadStates } from './read-state.js';
import type { AgentRun } from './agent-run.js';
import type { ToolContext } from './tools/context.js';
import type { GuardRefusal } from './types.js';

export function toolContext(run: AgentRun, who: string, reads = new ReadStates()): ToolContext {
  const guardRefusals: GuardRefusal[] = [];
  return {
    files: run.files,
    reads,
    lock: run.lock,
    signal: run.signal,
    touched: new Map(),
    guards: run.guards,
    guardRefusals,
    refused: (tool: string, path: string | null, f: Failure) => {
      run.refusedCalls++;
      if (f.kind === 'guard' && path !== null) {
        const r: GuardRefusal = { file: path, guard: String(f.data?.['guard'] ?? 'guard'), tool, message: run.redact(f.message) };
        guardRefusals.push(r);
        run.refusals.push(r);
      }
      const code = f.code === undefined ? '' : ` ${f.code}`;
      run.log(`agent: ${who}: refused ${tool}${path === null ? '' : ` on ${path}`} (${f.kind}${code}); the model was told why`);
    },
  };
}
