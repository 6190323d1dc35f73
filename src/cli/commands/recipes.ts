// `scion validate`, `scion list` and `scion schema`: recipes checked, listed, and their JSON Schema.
import { isAbsolute, join, relative, resolve } from 'node:path';
import { formatProblem, listRecipes, recipeSchema, validate } from '../../api/recipes.js';
import { plural } from '../../api/text.js';
import type { Args } from '../args.js';
import type { CliIo } from '../io.js';

/** Every problem of every recipe, with file:line:col; exit 2 when any. */
export async function validateCommand(io: CliIo, a: Args): Promise<number> {
  const files = Array.isArray(a['recipe']) ? a['recipe'].map(String) : [String(a['recipe'])];
  let bad = 0;
  for (const r of await validate(files, io.cwd)) {
    const shown = display(io.cwd, r.file);
    if (r.ok) {
      io.stdout.write(`${shown}: ok (${r.recipe.name}, ${plural(r.recipe.steps.length, 'step')})\n`);
      continue;
    }
    bad++;
    for (const p of r.problems) io.stderr.write(`${formatProblem({ ...p, file: display(io.cwd, p.file) })}\n`);
  }
  if (bad > 0) io.stderr.write(`${bad} of ${plural(files.length, 'recipe')} invalid.\n`);
  return bad > 0 ? 2 : 0;
}

/** The recipes under ./recipes, with name, description and jobs. */
export async function listCommand(io: CliIo, a: Args): Promise<number> {
  const root = resolve(io.cwd, String(a['dir']));
  const { recipes } = await listRecipes(root);
  if (recipes.length === 0) {
    io.stderr.write(`No recipes in ${join(relative(io.cwd, root) || '.', 'recipes')}; write one there (see \`scion validate --help\`) or pass --dir.\n`);
    return 0;
  }
  const rows = recipes.map((r) => {
    const shown = relative(io.cwd, r.file);
    if (!r.ok) return [shown, '(invalid)', `${plural(r.problems.length, 'problem')}: run scion validate ${shown}`, ''];
    const jobs = r.recipe.jobs.length === 0 ? '1 job' : r.recipe.jobs.map((j) => ('name' in j ? j.name : `each ${j.each}`)).join(', ');
    return [shown, r.recipe.name, r.recipe.description ?? '', jobs];
  });
  const head = ['FILE', 'NAME', 'DESCRIPTION', 'JOBS'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const r of [head, ...rows])
    io.stdout.write(
      `${r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd()}\n`,
    );
  return 0;
}

export async function schemaCommand(io: CliIo): Promise<number> {
  io.stdout.write(`${JSON.stringify(recipeSchema(), null, 2)}\n`);
  return 0;
}

/** Paths under the current folder are shown relative to it, others in full. */
function display(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}
