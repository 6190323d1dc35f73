// One step, dispatched on its single key. Labels name the step in progress output.
import type { Step } from '../../recipe/index.js';
import type { StepContext } from '../step-context.js';
import { runEdit } from './edit.js';
import { runNotebook } from './notebook.js';
import { runReplace } from './replace.js';
import { runRunStep } from './run.js';
import { runTransform } from './transform.js';
import { runWrite } from './write.js';
import { runAgent } from './agent.js';

export function stepLabel(step: Step): string {
  if ('edit' in step) return `edit ${step.edit.file}`;
  if ('replace' in step) return `replace ${JSON.stringify(clip(step.replace.old_string))}`;
  if ('write' in step) return `write ${step.write.file}`;
  if ('notebook' in step) return `notebook ${step.notebook.file}`;
  if ('run' in step) return `run ${clip(step.run.command)}`;
  if ('agent' in step) return `agent ${JSON.stringify(clip(step.agent.prompt))}`;
  return 'transform';
}

export function needsDisk(step: Step): boolean {
  return 'run' in step;
}

export async function runStep(ctx: StepContext, step: Step): Promise<void> {
  if ('edit' in step) return runEdit(ctx, step.edit);
  if ('replace' in step) return runReplace(ctx, step.replace);
  if ('write' in step) return runWrite(ctx, step.write);
  if ('notebook' in step) return runNotebook(ctx, step.notebook);
  if ('run' in step) return runRunStep(ctx, step.run);
  if ('agent' in step) return runAgent(ctx, step.agent);
  return runTransform(ctx, step.transform);
}

function clip(s: string): string {
  const line = s.split('\n')[0] ?? '';
  return line.length > 48 ? `${line.slice(0, 47)}…` : line;
}
