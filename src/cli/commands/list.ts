// `scion list`: the recipes under ./recipes, with name, description and jobs.
import { join, relative, resolve } from 'node:path';
import { findRecipes, loadRecipe } from '../../recipe/index.js';
import type { CliIo } from '../io.js';

export async function listCmd(io: CliIo, dir: string): Promise<number> {
  const root = resolve(io.cwd, dir);
  const files = await findRecipes(root);
  if (files.length === 0) {
    io.stderr.write(`No recipes in ${join(relative(io.cwd, root) || '.', 'recipes')}; write one there (see \`scion validate --help\`) or pass --dir.\n`);
    return 0;
  }
  const rows: string[][] = [];
  for (const f of files) {
    const r = await loadRecipe(f);
    const shown = relative(io.cwd, f);
    if (!r.ok) {
      rows.push([shown, '(invalid)', `${r.problems.length} problem${r.problems.length === 1 ? '' : 's'}: run scion validate ${shown}`, '']);
      continue;
    }
    const jobs = r.recipe.jobs.length === 0 ? '1 job' : r.recipe.jobs.map((j) => ('name' in j ? j.name : `each ${j.each}`)).join(', ');
    rows.push([shown, r.recipe.name, r.recipe.description ?? '', jobs]);
  }
  const head = ['FILE', 'NAME', 'DESCRIPTION', 'JOBS'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const r of [head, ...rows]) io.stdout.write(`${r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()}\n`);
  return 0;
}
