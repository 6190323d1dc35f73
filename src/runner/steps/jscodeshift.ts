// `jscodeshift`: an existing jscodeshift transform on every selected file its parser reads, called as
// jscodeshift's own runner calls it, in a worker process under the step's deadline (a transform that
// loops is killed with its process). A result that differs from the source is written through the
// edit engine's checks, in the file's encoding, BOM and line endings; a throw fails that file with
// kind `transform`, naming it.
import { failure } from '../../errors.js';
import type { JscodeshiftPayload } from '../../recipe/schema-structural.js';
import { PARSERS, parserExtensions, type ParserName, type TransformOutcome } from '../../structural/index.js';
import { extensionOf } from '../../structural/index.js';
import type { StepContext } from '../step-context.js';
import { failed, Findings, type StepOutcome } from '../step-outcome.js';
import { crashed, offeredPaths, poolFor, settleFailure, throughPool, writeChanged } from './structural-files.js';

export async function runJscodeshift(ctx: StepContext, step: JscodeshiftPayload): Promise<StepOutcome> {
  const loaded = step.loaded;
  if (!loaded) return failed(null, notLoaded());
  const found = new Findings();
  const extensions = new Set(parserExtensions(readingParser(step.parser, loaded.transform.parser)));
  const paths = offeredPaths(ctx, step.files, (p) => extensions.has(extensionOf(p)), found);
  const job = {
    kind: 'jscodeshift' as const,
    specifier: step.transform,
    fromDir: loaded.fromDir,
    ...(step.parser ? { parser: step.parser } : {}),
    ...(step.options ? { options: step.options } : {}),
  };
  const { pool, done } = poolFor(ctx);
  try {
    await throughPool<TransformOutcome>(
      ctx,
      paths,
      found,
      (file, limits) => pool.run(job, file, limits),
      async (file, answer) => {
        if (answer instanceof Error) {
          found.error(file.path, crashed('transform', file.path, answer, `The jscodeshift transform ${step.transform}`));
          return 'go';
        }
        if (!answer.ok) return settleFailure(found, file.path, answer.error);
        const out = answer.value;
        // What the transform passed to api.report(), as jscodeshift's runner prints it.
        for (const line of out.reports) ctx.log(`jscodeshift: ${file.path}: ${line}`);
        if (out.status === 'changed') await writeChanged(ctx, found, file, out.changes);
        return 'go';
      },
    );
  } finally {
    done();
  }
  return found.outcome();
}

/**
 * The parser whose extensions pick the files: the step's, else the module's `parser` export when it
 * names one, else babel (a module's own parser object reads what babel would be given).
 */
function readingParser(step: ParserName | undefined, exported: unknown): ParserName {
  if (step) return step;
  if (typeof exported === 'string' && (PARSERS as readonly string[]).includes(exported)) return exported as ParserName;
  return 'babel';
}

function notLoaded() {
  return failure(
    'unsupported',
    'The jscodeshift step was not loaded (its transform is imported when the recipe is: loadRecipe, runRecipes); load the recipe through them.',
  );
}
