// The README stays true: its recipe reference is the schema's, and its commands exist.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import * as library from '../src/index.js';
import { formatProblem, loadRecipe, recipeFieldDocs } from '../src/recipe/index.js';
import { gitRepo, runGit } from './support/git-repo.js';

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

  describe('the library API section', () => {
    const section = readme.slice(readme.indexOf('## Library API'), readme.indexOf('\n## ', readme.indexOf('## Library API') + 1));

    it('names every function and value the package exports', () => {
      const missing = Object.keys(library).filter((name) => !section.includes(`\`${name}\``) && !section.includes(`\`${name}(`));
      expect(missing).toEqual([]);
    });

    it('has a worked example that runs as written and prints what the section says it prints', async () => {
      const code = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
      const printed = /```text\n([\s\S]*?)```/.exec(section)![1]!;
      const repo = await gitRepo({ 'src/log.ts': "legacyLog('hello');\n", 'README.md': '# app\n' });
      try {
        writeFileSync(join(repo.dir, 'codemod.mts'), code);
        repo.git('add', 'codemod.mts');
        repo.git('commit', '-qm', 'the example');
        // As a user runs it (npx tsx codemod.mts); the package name resolves to the sources here (TSX_TSCONFIG_PATH).
        const r = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), 'codemod.mts'], { cwd: repo.dir, env: process.env, encoding: 'utf8' });
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout).toBe(printed);
        // The branch is there, as native git sees it; the checkout is untouched.
        expect(runGit(repo.dir, 'show', 'scion/rename-logger:src/log.ts')).toBe("log('hello');");
        expect(runGit(repo.dir, 'status', '--porcelain')).toBe('');
        // A library error names the option, never a flag.
        expect(r.stdout.split('\n').find((l) => l.startsWith('not-a-repository:'))).not.toMatch(/--[a-z]/);
      } finally {
        await repo.cleanup();
      }
    });
  });
});
