// What a step (or verify command) found, as a value: its errors and the files it left alone on purpose,
// in the order it met them. The job stamps them with the step's index when it keeps them; a step cut
// by its limit is undone whole, and its outcome is simply never read.
import type { Failure } from '../errors.js';
import type { Estimate, GuardRefusal } from '../agent/types.js';
import type { ErrorReport, EstimateReport, RefusalReport, SkipReason, SkipReport } from '../model/types.js';

export interface StepProblem {
  readonly file: string | null;
  readonly failure: Failure;
}

export interface StepSkip {
  readonly file: string;
  readonly reason: SkipReason;
}

export interface StepOutcome {
  readonly errors: readonly StepProblem[];
  readonly skipped: readonly StepSkip[];
  /** Structural steps: matches per file, rewritten (or found, by a rule without a fix). */
  readonly matches?: ReadonlyMap<string, number>;
  /** Set by a step that only counts (no fix): the files it found matching, which its `expect` counts as changed files. */
  readonly found?: number;
  /** Model edits the guards refused (agent steps). */
  readonly refusals?: readonly GuardRefusal[];
  /** In a plan: what the model conversations the step did not start would cost. */
  readonly estimate?: Estimate | null;
}

export const NOTHING: StepOutcome = { errors: [], skipped: [] };

export function failed(file: string | null, f: Failure): StepOutcome {
  return { errors: [{ file, failure: f }], skipped: [] };
}

/** A step over many files collects its findings here and returns `outcome()`. */
export class Findings {
  private readonly errors: StepProblem[] = [];
  private readonly skipped: StepSkip[] = [];
  private readonly matches = new Map<string, number>();
  /** null until the step says it only counts (a rule without a fix). */
  private found: number | null = null;

  error(file: string | null, f: Failure): void {
    this.errors.push({ file, failure: f });
  }

  skip(file: string, reason: SkipReason): void {
    this.skipped.push({ file, reason });
  }

  /** The step only counts (a rule without a fix): the files it finds matching are what its `expect` counts. */
  counting(): void {
    this.found ??= 0;
  }

  /** `n` matches in `file` (rewritten, or found by a step that only counts). */
  match(file: string, n: number): void {
    if (n <= 0) return;
    this.matches.set(file, (this.matches.get(file) ?? 0) + n);
    if (this.found !== null) this.found++;
  }

  outcome(): StepOutcome {
    return {
      errors: [...this.errors],
      skipped: [...this.skipped],
      ...(this.matches.size > 0 ? { matches: new Map(this.matches) } : {}),
      ...(this.found !== null ? { found: this.found } : {}),
    };
  }
}

export function errorReport(step: number, p: StepProblem): ErrorReport {
  const f = p.failure;
  return {
    step,
    file: p.file,
    kind: f.kind,
    ...(f.code === undefined ? {} : { code: f.code }),
    message: f.message,
    ...(f.hint === undefined ? {} : { hint: f.hint }),
  };
}

export function skipReport(step: number, s: StepSkip): SkipReport {
  return { step, file: s.file, reason: s.reason };
}

export function refusalReport(step: number, r: GuardRefusal): RefusalReport {
  return { step, ...r };
}

export function estimateReport(step: number, e: Estimate): EstimateReport {
  return { step, ...e };
}
