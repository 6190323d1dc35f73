// Every step kind in one table: how progress output names it, whether it needs the files on disk,
// its default time limit and the function that runs it. The table is typed by StepKind, so a kind
// added to the schema without an entry here does not compile.
import { stepKind, type Step, type StepKind, type StepOf } from '../../recipe/index.js';
import type { StepContext } from '../step-context.js';
import type { StepOutcome } from '../step-outcome.js';
import { runAgent } from './agent.js';
import { runAstgrep } from './astgrep.js';
import { runJscodeshift } from './jscodeshift.js';
import { runEdit } from './edit.js';
import { runNotebook } from './notebook.js';
import { runReplace } from './replace.js';
import { runRunStep } from './command.js';
import { runTransform } from './transform.js';
import { runWrite } from './write.js';

/** What a step of kind K carries under its key, e.g. the `{ file, edits }` of an edit. */
export type StepPayload<K extends StepKind> = StepOf<K>[K];

export interface StepDef<K extends StepKind> {
  readonly label: (payload: StepPayload<K>) => string;
  /** Runs a shell command, so the job needs a real worktree. */
  readonly needsDisk: boolean;
  /** The default limit for the whole step when it names no `timeout`; null: no limit. */
  readonly defaultSeconds: number | null;
  /** The one file the step reads and writes, when it names one (edit, write, notebook); else null. */
  readonly file: (payload: StepPayload<K>) => string | null;
  readonly run: (ctx: StepContext, payload: StepPayload<K>) => Promise<StepOutcome>;
}

export const STEPS: { readonly [K in StepKind]: StepDef<K> } = {
  edit: { label: (s) => `edit ${s.file}`, needsDisk: false, defaultSeconds: null, file: (s) => s.file, run: runEdit },
  // `replace` with regex is bounded per file instead (step-bounds.ts REGEX_FILE_TIMEOUT_MS).
  replace: { label: (s) => `replace ${JSON.stringify(clip(s.old_string))}`, needsDisk: false, defaultSeconds: null, file: () => null, run: runReplace },
  write: { label: (s) => `write ${s.file}`, needsDisk: false, defaultSeconds: null, file: (s) => s.file, run: runWrite },
  notebook: { label: (s) => `notebook ${s.file}`, needsDisk: false, defaultSeconds: null, file: (s) => s.file, run: runNotebook },
  run: { label: (s) => `run ${clip(s.command)}`, needsDisk: true, defaultSeconds: 600, file: () => null, run: runRunStep },
  agent: { label: (s) => `agent ${JSON.stringify(clip(s.prompt))}`, needsDisk: false, defaultSeconds: 600, file: () => null, run: runAgent },
  // Structural steps work on objects too; their workers are killed at the step's deadline.
  astgrep: {
    label: (s) => `astgrep ${s.ruleFile ?? JSON.stringify(clip(ruleLabel(s.rule)))}`,
    needsDisk: false,
    defaultSeconds: 600,
    file: () => null,
    run: runAstgrep,
  },
  jscodeshift: { label: (s) => `jscodeshift ${s.transform}`, needsDisk: false, defaultSeconds: 600, file: () => null, run: runJscodeshift },
  transform: { label: () => 'transform', needsDisk: false, defaultSeconds: 600, file: () => null, run: runTransform },
};

/** An inline rule as a label: its pattern when it has one at the top, else its kind, else "rule". */
function ruleLabel(rule: Readonly<Record<string, unknown>> | undefined): string {
  const p = rule?.['pattern'];
  if (typeof p === 'string') return p;
  const context = p !== null && typeof p === 'object' ? (p as Record<string, unknown>)['context'] : undefined;
  if (typeof context === 'string') return context;
  return typeof rule?.['kind'] === 'string' ? (rule['kind'] as string) : 'rule';
}

/** The table's entry for a step, with its payload typed to match. */
function entry<K extends StepKind>(step: Step, kind: K): { def: StepDef<K>; payload: StepPayload<K> } {
  // stepKind(step) === kind, so the step is the union member keyed by it.
  return { def: STEPS[kind], payload: (step as StepOf<K>)[kind] };
}

export function stepLabel(step: Step): string {
  const { def, payload } = entry(step, stepKind(step));
  return def.label(payload);
}

/** The one file a step names (edit, write, notebook), or null when it may touch any selected file. */
export function namedFile(step: Step): string | null {
  const { def, payload } = entry(step, stepKind(step));
  return def.file(payload);
}

export function needsDisk(step: Step): boolean {
  return STEPS[stepKind(step)].needsDisk;
}

/** The whole step's limit in ms: its own `timeout`, else its kind's default; null when it has none. */
export function stepLimitMs(step: Step): number | null {
  if (step.timeout !== undefined) return step.timeout * 1000;
  const seconds = STEPS[stepKind(step)].defaultSeconds;
  return seconds === null ? null : seconds * 1000;
}

export function runStep(ctx: StepContext, step: Step): Promise<StepOutcome> {
  const { def, payload } = entry(step, stepKind(step));
  return def.run(ctx, payload);
}

function clip(s: string): string {
  const line = s.split('\n')[0] ?? '';
  return line.length > 48 ? `${line.slice(0, 47)}…` : line;
}
