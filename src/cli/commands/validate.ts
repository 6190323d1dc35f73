// `scion validate`: every problem of every recipe, with file:line:col; exit 2 when any.
import { isAbsolute, relative, resolve } from 'node:path';
import { formatProblem, loadRecipe } from '../../recipe/index.js';
import type { CliIo } from '../io.js';

export async function validateCmd(io: CliIo, files: readonly string[]): Promise<number> {
  let bad = 0;
  for (const f of files) {
    const r = await loadRecipe(resolve(io.cwd, f));
    const shown = display(io.cwd, r.file);
    if (r.ok) {
      io.stdout.write(`${shown}: ok (${r.recipe.name}, ${r.recipe.steps.length} step${r.recipe.steps.length === 1 ? '' : 's'})\n`);
      continue;
    }
    bad++;
    for (const p of r.problems) io.stderr.write(`${formatProblem({ ...p, file: display(io.cwd, p.file) })}\n`);
  }
  if (bad > 0) io.stderr.write(`${bad} of ${files.length} recipe${files.length === 1 ? '' : 's'} invalid.\n`);
  return bad > 0 ? 2 : 0;
}

/** Paths under the current folder are shown relative to it, others in full. */
function display(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}
