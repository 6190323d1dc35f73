// Loading a recipe's structural steps once the schema has passed: each `astgrep` step's rule (inline,
// or its rule file read from beside the recipe) compiled by the engine with the language packages it
// needs, each `jscodeshift` step's transform module imported. Every problem at once: a rule problem
// points into the recipe (steps[2].astgrep.rule.inside.kindd) or into the rule file at its own
// line:col; a module that cannot be used points at the step's `transform`. What loaded rides on the
// step (`loaded`), so the runner never loads anything again and a worker process can rebuild it.
//
// All the astgrep steps of a recipe are loaded before any runs: napi registers extra languages once
// per process, at the first load that needs one (see structural/packs.ts). The engine itself loads
// only for a recipe that has such a step.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { err, ok, type Result } from '../errors.js';
import type { AstgrepSource, LoadProblem } from '../structural/index.js';
import type { PathSegment, RawProblem } from './problems.js';
import type { Recipe, Step } from './schema.js';
import type { AstgrepPayload, JscodeshiftPayload } from './schema-structural.js';

/** A problem in a file other than the recipe (a rule file): it carries its own position. */
export interface ForeignProblem {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  /** Where in the recipe the file is named, then where in the file the problem is. */
  readonly path: string;
  readonly message: string;
}

/** Every problem of a recipe's structural steps: in the recipe itself, and in the files it names. */
export interface StructuralProblems {
  readonly problems: readonly RawProblem[];
  readonly foreign: readonly ForeignProblem[];
}

export type StructuralResult = Result<Recipe, StructuralProblems>;

/** True when the recipe has a structural step (nothing to load otherwise: no native module is touched). */
export function hasStructuralSteps(recipe: Recipe): boolean {
  return recipe.steps.some((s) => 'astgrep' in s || 'jscodeshift' in s);
}

/**
 * Loads every structural step of a parsed recipe. `dir` is the recipe file's folder: rule files and
 * transform paths are relative to it, and language packages and transform packages resolve from it upwards.
 */
export async function loadStructural(recipe: Recipe, dir: string): Promise<StructuralResult> {
  if (!hasStructuralSteps(recipe)) return ok(recipe);
  const { loadAstgrep, loadTransform } = await import('../structural/index.js');
  const problems: RawProblem[] = [];
  const foreign: ForeignProblem[] = [];
  const steps: Step[] = [];
  const fromDir = resolve(dir);
  for (const [i, step] of recipe.steps.entries()) {
    if ('astgrep' in step) {
      const at: PathSegment[] = ['steps', i, 'astgrep'];
      const payload = step.astgrep;
      const source = await astgrepSource(payload, fromDir, at, problems);
      if (source === null) {
        steps.push(step);
        continue;
      }
      const loaded = await loadAstgrep(source, { fromDir });
      if (loaded.ok) steps.push({ ...step, astgrep: withLoaded(payload, { source, fromDir, program: loaded.value }) });
      else {
        for (const p of loaded.error) place(p, at, problems, foreign);
        steps.push(step);
      }
    } else if ('jscodeshift' in step) {
      const payload: JscodeshiftPayload = step.jscodeshift;
      const loaded = await loadTransform(payload.transform, fromDir);
      if (loaded.ok) steps.push({ ...step, jscodeshift: withLoaded(payload, { fromDir, transform: loaded.value }) });
      else {
        problems.push({ path: ['steps', i, 'jscodeshift', 'transform'], at: 'value', message: loaded.error });
        steps.push(step);
      }
    } else steps.push(step);
  }
  if (problems.length > 0 || foreign.length > 0) return err({ problems, foreign });
  return ok({ ...recipe, steps });
}

/**
 * The payload with what was loaded, as a property that is not enumerable: the recipe stays plain data
 * to every reader that walks it (a library caller's recipe parsed again, a JSON dump), and a payload
 * parsed again is simply loaded again.
 */
function withLoaded<T extends object, L>(payload: T, loaded: L): T & { readonly loaded: L } {
  const copy = { ...payload };
  Object.defineProperty(copy, 'loaded', { value: loaded, enumerable: false });
  return copy as T & { readonly loaded: L };
}

/** The engine's input for a step: its own fields, or its rule file's text (a problem when it cannot be read). */
async function astgrepSource(payload: AstgrepPayload, fromDir: string, at: PathSegment[], problems: RawProblem[]): Promise<AstgrepSource | null> {
  if (payload.ruleFile === undefined) {
    // The step's rule fields as written (files narrows the selection and is the runner's).
    const { files: _files, ruleFile: _none, ...step } = payload;
    return { kind: 'inline', step };
  }
  const file = resolve(fromDir, payload.ruleFile);
  try {
    return { kind: 'file', file, text: await readFile(file, 'utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? `the rule file ${payload.ruleFile} does not exist (looked for ${file}); rule files are relative to the recipe file`
        : code === 'EISDIR'
          ? `the rule file ${payload.ruleFile} is a directory, not a YAML file`
          : `the rule file ${payload.ruleFile} could not be read: ${(e as Error).message}`;
    problems.push({ path: [...at, 'ruleFile'], at: 'value', message: why });
    return null;
  }
}

function place(p: LoadProblem, at: readonly PathSegment[], problems: RawProblem[], foreign: ForeignProblem[]): void {
  if (p.where === 'step') problems.push({ path: [...at, ...p.path], at: p.at, message: p.message });
  else foreign.push({ file: p.file, line: p.line, col: p.col, path: p.path, message: p.message });
}
