// The README stays true: its recipe reference is the schema's, and its commands exist.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatProblem, loadRecipe, recipeFieldDocs } from '../src/recipe/index.js';

const root = new URL('..', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> };

describe('README', () => {
  it('lists every recipe field with the description the schema gives it', () => {
    for (const d of recipeFieldDocs()) {
      expect(readme).toContain(`| \`${d.path}\` | ${d.description.replace(/\|/g, '\\|')} |`);
    }
  });

  it('names only npm scripts that exist, and CI runs the test command it names', () => {
    for (const m of readme.matchAll(/npm run ([a-z:-]+)/g)) expect(Object.keys(pkg.scripts)).toContain(m[1]);
    expect(readme).toContain('npm test');
    expect(readFileSync(new URL('.ci/run', root), 'utf8')).toMatch(/^npm test$/m);
  });

  it('the structural steps section shows steps that load as they are written', async () => {
    const section = readme.slice(readme.indexOf('## Structural steps'), readme.indexOf('\n## ', readme.indexOf('## Structural steps') + 1));
    const blocks = [...section.matchAll(/^( *)```yaml\n([\s\S]*?)^\1```$/gm)].map((m) => m[2]!.replace(new RegExp(`^${m[1]}`, 'gm'), ''));
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    // Beside the recipe: the transform the jscodeshift example names.
    const dir = mkdtempSync(join(tmpdir(), 'scion-readme-'));
    try {
      cpSync(fileURLToPath(new URL('recipes/transforms', root)), join(dir, 'transforms'), { recursive: true });
      for (const [i, block] of blocks.entries()) {
        const steps = block.startsWith('steps:') ? block : `steps:\n${block.replace(/^/gm, '  ')}`;
        const file = join(dir, `readme-${i}.yaml`);
        writeFileSync(file, `name: readme-${i}\n${steps}`);
        const loaded = await loadRecipe(file);
        expect(loaded.ok ? [] : loaded.problems.map(formatProblem), block).toEqual([]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
