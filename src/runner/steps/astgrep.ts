// `astgrep`: an ast-grep rule (inline, or a rule file's rules in order) on every selected file of a
// language it reads. The engine (src/structural) rewrites each file in a worker process, under the
// step's deadline; what it answers is handled here in path order: a changed file written through the
// edit engine's checks, a file that had syntax errors already listed as skipped, its matches counted.
import { failure } from '../../errors.js';
import { matcher } from '../../recipe/index.js';
import type { AstgrepPayload } from '../../recipe/schema-structural.js';
import { languageOf, mayMatch, onlyRules, type AstgrepProgram, type FileOutcome } from '../../structural/index.js';
import type { StepContext } from '../step-context.js';
import { failed, Findings, type StepOutcome } from '../step-outcome.js';
import { crashed, offeredPaths, poolFor, settleFailure, throughPool, writeChanged } from './structural-files.js';

export async function runAstgrep(ctx: StepContext, step: AstgrepPayload): Promise<StepOutcome> {
  const loaded = step.loaded;
  if (!loaded) return failed(null, notLoaded());
  const { program, source, fromDir } = loaded;
  const found = new Findings();
  // Rules without a fix count: the files they find are what the step's `expect` counts.
  if (program.rules.every((r) => r.rule.fix === null)) found.counting();
  const rulesFor = ruleSelector(program);
  const paths = offeredPaths(ctx, step.files, (p) => languageOf(program, p) !== null, found);
  const { pool, done } = poolFor(ctx);
  try {
    await throughPool<FileOutcome>(
      ctx,
      paths,
      found,
      (file, limits) => {
        const rules = rulesFor(file.path);
        if (rules !== 'all' && rules.length === 0) return null;
        // The cheap byte test first: most files of a tree never reach a parser.
        if (!mayMatch(rules === 'all' ? program : onlyRules(program, rules), file.path, file.bytes)) return null;
        return pool.run({ kind: 'astgrep', source, fromDir, ...(rules === 'all' ? {} : { rules }) }, file, limits);
      },
      async (file, answer) => {
        if (answer instanceof Error) {
          found.error(file.path, crashed('unsupported', file.path, answer, "ast-grep's worker"));
          return 'go';
        }
        if (!answer.ok) return settleFailure(found, file.path, answer.error);
        const out = answer.value;
        if (out.status === 'skipped') found.skip(file.path, 'syntax-error');
        else if (out.status === 'unchanged') found.match(file.path, out.matches);
        else if (await writeChanged(ctx, found, file, out.changes)) found.match(file.path, out.matches);
        return 'go';
      },
    );
  } finally {
    done();
  }
  return found.outcome();
}

/**
 * A rule file's documents may name their own `files`/`ignores` (repository-relative globs): each
 * path gets the rules that take it, by index, or 'all' when no rule names any.
 */
function ruleSelector(program: AstgrepProgram): (path: string) => 'all' | number[] {
  const tests = program.rules.map((r) => (r.rule.globs === null ? null : matcher({ include: [...r.rule.globs.include], exclude: [...r.rule.globs.exclude] })));
  if (tests.every((t) => t === null)) return () => 'all';
  return (path) => {
    const take = tests.flatMap((t, i) => (t === null || t(path) ? [i] : []));
    return take.length === tests.length ? 'all' : take;
  };
}

function notLoaded() {
  return failure(
    'unsupported',
    'The astgrep step was not loaded (its rules are read when the recipe is: loadRecipe, runRecipes); load the recipe through them.',
  );
}
