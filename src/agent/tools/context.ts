// What a tool call may use: the job's files, this conversation's read state, the step's edit lock,
// and the record of what this conversation changed (for the response cache).
import type { Failure } from '../../errors.js';
import type { Guards } from '../guards/index.js';
import type { Mutex } from '../mutex.js';
import type { ReadStates } from '../read-state.js';
import type { AgentFiles, GuardRefusal } from '../types.js';

export interface ToolContext {
  readonly files: AgentFiles;
  readonly reads: ReadStates;
  readonly lock: Mutex;
  /** Paths this conversation changed → blob id before its first change (null: it created the file). */
  readonly touched: Map<string, string | null>;
  /** The step's signal (interrupt, deadline): once it fired, no tool call runs and no write lands. */
  readonly signal?: AbortSignal;
  /** Called for every refused call, so the step can count and log them. */
  readonly refused: (tool: string, path: string | null, f: Failure) => void;
  /** The guards every change passes before it is written. */
  readonly guards: Guards;
  /** This conversation's edits the guards refused (a second one means the model insists). */
  readonly guardRefusals: GuardRefusal[];
}

export interface ToolReply {
  readonly content: string;
  readonly isError: boolean;
}

/** The answer to a call the stopped step did not run. */
export function stopped(): ToolReply {
  return { content: 'The step was stopped (interrupted or out of time) before this call ran; nothing was changed.', isError: true };
}

export const reply = (content: string): ToolReply => ({ content, isError: false });

/** A refusal the model can act on: what went wrong (kind and seed code), then what to do. */
export function refusal(f: Failure, advice: string | null): ToolReply {
  const code = f.code === undefined ? '' : `, code ${f.code}`;
  const parts = [`Error (${f.kind}${code}): ${f.message}`];
  if (advice) parts.push(advice);
  parts.push('Nothing was changed.');
  return { content: parts.join('\n'), isError: true };
}
