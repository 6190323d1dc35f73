// `agent`: hands the model the job's files through the same gate and engine as every other step.
import { runAgentStep } from '../../agent/index.js';
import type { AgentStepConfig } from '../../agent/types.js';
import { matcher } from '../../recipe/index.js';
import { agentEnv, agentFiles } from '../agent-files.js';
import type { StepContext } from '../step-context.js';
import type { StepOutcome } from '../step-outcome.js';

export async function runAgent(ctx: StepContext, step: AgentStepConfig): Promise<StepOutcome> {
  const narrow = step.files ? matcher({ include: step.files.include ?? ['**'], exclude: step.files.exclude ?? [] }) : () => true;
  const outcome = await runAgentStep(step, await agentFiles(ctx, narrow), agentEnv(ctx));
  ctx.addUsage(outcome.usage);
  return { errors: outcome.errors, skipped: [], refusals: outcome.refusals, estimate: outcome.estimate };
}
