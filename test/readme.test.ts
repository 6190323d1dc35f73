// The README stays true: its recipe reference is the schema's, and its commands exist.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { recipeFieldDocs } from '../src/recipe/index.js';

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
});
