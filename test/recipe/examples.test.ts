// The bundled example recipes against the sample project in fixtures/sample. The real engine lives
// elsewhere; here a plain stand-in applies each step with exact string matching, which is enough to
// prove what the engine needs from each example: every edit's old_string is found exactly once
// (or replace_all), every selected file is where the recipe expects it, every result still parses.
// The structural examples (console-to-logger, react-lifecycles) need the real engine: they run through
// the CLI in test/structural/examples-cli.test.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { findRecipes, formatProblem, loadRecipe, matcher, type Recipe, type Step } from '../../src/recipe/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SAMPLE = join(ROOT, 'fixtures', 'sample');
const EXAMPLES = [
  'add-header.ts',
  'agent-async.yaml',
  'bump-config.yaml',
  'console-to-logger.yaml',
  'import-migration.yaml',
  'notebook-cleanup.yaml',
  'react-lifecycles.yaml',
  'rename-logger.yaml',
];

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const abs = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(abs)));
    else out.push(abs);
  }
  return out;
}

async function sampleFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const abs of await walk(SAMPLE)) files.set(relative(SAMPLE, abs).split('\\').join('/'), await readFile(abs, 'utf8'));
  return files;
}

async function load(name: string): Promise<Recipe> {
  const result = await loadRecipe(join(ROOT, 'recipes', name));
  if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'));
  return result.recipe;
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

interface Cell {
  id?: string;
  cell_type: string;
  source: string | string[];
  outputs?: unknown[];
  execution_count?: number | null;
}

/** Applies the recipe's steps to a copy of `files`; returns the new contents and the changed paths. */
async function simulate(recipe: Recipe, files: Map<string, string>): Promise<{ files: Map<string, string>; changed: string[] }> {
  const out = new Map(files);
  const inJob = matcher(recipe.files);
  const selected = () => [...out.keys()].filter(inJob).sort();
  for (const [i, step] of recipe.steps.entries()) await apply(step, i);
  const changed = [...out.keys()].filter((p) => out.get(p) !== files.get(p)).sort();
  for (const p of changed.filter((p) => p.endsWith('.json') || p.endsWith('.ipynb'))) expect(() => JSON.parse(out.get(p)!), p).not.toThrow();
  return { files: out, changed };

  async function apply(step: Step, i: number): Promise<void> {
    if ('edit' in step) {
      const { file, edits } = step.edit;
      expect(inJob(file), `steps[${i}] ${file} is in the recipe's files`).toBe(true);
      let text = out.get(file);
      expect(text, `steps[${i}] ${file} exists`).toBeDefined();
      for (const e of edits) {
        const n = count(text!, e.old_string);
        expect(e.replace_all ? n >= 1 : n === 1, `steps[${i}] "${e.old_string}" found ${n} times in ${file}`).toBe(true);
        text = text!.split(e.old_string).join(e.new_string);
      }
      out.set(file, text!);
    } else if ('replace' in step) {
      const r = step.replace;
      const narrow = r.files ? matcher(r.files) : () => true;
      let touched = 0;
      for (const path of selected().filter(narrow)) {
        const text = out.get(path)!;
        const n = r.regex ? (text.match(new RegExp(r.old_string, 'g')) ?? []).length : count(text, r.old_string);
        if (n === 0) continue;
        expect(r.replace_all || n === 1, `steps[${i}] ${n} matches in ${path} without replace_all`).toBe(true);
        touched++;
        out.set(path, r.regex ? text.replace(new RegExp(r.old_string, r.replace_all ? 'g' : ''), r.new_string) : text.split(r.old_string).join(r.new_string));
      }
      expect(touched, `steps[${i}] replace touches at least one file`).toBeGreaterThan(0);
    } else if ('notebook' in step) {
      const s = step.notebook;
      expect(inJob(s.file)).toBe(true);
      const nb = JSON.parse(out.get(s.file)!) as { cells: Cell[] };
      const at = s.cell === undefined ? -1 : nb.cells.findIndex((c) => c.id === s.cell);
      if (s.cell !== undefined) expect(at, `steps[${i}] cell ${s.cell} exists`).toBeGreaterThanOrEqual(0);
      if (s.mode === 'delete') nb.cells.splice(at, 1);
      else if (s.mode === 'insert') nb.cells.splice(at + 1, 0, { cell_type: s.type!, id: `new-${i}`, source: s.source });
      else {
        const cell = nb.cells[at]!;
        cell.source = s.source;
        if (cell.cell_type === 'code') Object.assign(cell, { outputs: [], execution_count: null });
      }
      out.set(s.file, `${JSON.stringify(nb, null, 1)}\n`);
    } else if ('transform' in step) {
      for (const path of selected()) {
        const next = await step.transform({ path, content: out.get(path)! });
        if (typeof next === 'string') out.set(path, next);
      }
    } else {
      throw new Error(`steps[${i}]: the examples use no ${Object.keys(step)[0]} step`);
    }
  }
}

describe('example recipes', () => {
  it('findRecipes lists exactly the bundled examples, sorted', async () => {
    expect((await findRecipes(ROOT)).map((f) => relative(join(ROOT, 'recipes'), f))).toEqual(EXAMPLES);
  });

  it.each(EXAMPLES)('%s loads without problems', async (name) => {
    const recipe = await load(name);
    expect(recipe.name).toBe(name.replace(/\.(ya?ml|ts)$/, ''));
    expect(recipe.description).toBeTruthy();
  });

  it('rename-logger moves every call site and the README to log()', async () => {
    const before = await sampleFiles();
    const { files, changed } = await simulate(await load('rename-logger.yaml'), before);
    expect(changed).toEqual([
      'README.md',
      'packages/api/src/index.ts',
      'packages/api/src/routes.ts',
      'packages/api/src/server.ts',
      'packages/shared/src/index.ts',
      'packages/web/src/index.ts',
      'packages/web/src/render.ts',
    ]);
    for (const path of changed) {
      expect(files.get(path)).not.toMatch(/legacyLog|'\.\/legacy'/);
      if (path.endsWith('.ts')) expect(files.get(path)).toContain("import { log } from './logger';");
    }
    expect(files.get('README.md')).toContain('Packages log through `log()` from `./logger`.');
  });

  it('import-migration rewrites the relative imports of shared and its verify command passes after, fails before', async () => {
    const recipe = await load('import-migration.yaml');
    const { files, changed } = await simulate(recipe, await sampleFiles());
    expect(changed).toEqual(['packages/api/src/routes.ts', 'packages/web/src/render.ts']);
    expect(files.get('packages/api/src/routes.ts')).toContain("import { formatBytes, formatDate, slugify } from '@sample/shared';");
    expect(recipe.groups.map((g) => g.name)).toEqual(['web', 'api', 'shared']);

    const verify = recipe.verify[0]!.run;
    const dir = await mkdtemp(join(tmpdir(), 'scion-example-'));
    try {
      await cp(SAMPLE, dir, { recursive: true });
      expect(spawnSync('/bin/sh', ['-c', verify], { cwd: dir }).status).not.toBe(0);
      for (const path of changed) await writeFile(join(dir, path), files.get(path)!);
      expect(spawnSync('/bin/sh', ['-c', verify], { cwd: dir }).status).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("bump-config bumps versions and dependencies, and the results satisfy the recipe's schema", async () => {
    const recipe = await load('bump-config.yaml');
    const { files, changed } = await simulate(recipe, await sampleFiles());
    expect(changed).toEqual(['config.json', 'packages/api/package.json', 'packages/shared/package.json', 'packages/web/package.json']);
    const api = JSON.parse(files.get('packages/api/package.json')!);
    expect(api).toMatchObject({ version: '1.3.0', dependencies: { '@sample/shared': '1.3.0', express: '^4.19.2' } });
    expect(JSON.parse(files.get('config.json')!)).toMatchObject({ version: '1.3.0', features: { newLogger: true } });
    const schema = recipe.schemas[0]!;
    const validate = new Ajv2020({ strict: false }).compile(schema.schema as object);
    for (const path of changed.filter(matcher({ include: schema.files, exclude: [] }))) {
      expect(validate(JSON.parse(files.get(path)!)), path).toBe(true);
    }
    expect(validate({ name: 'x', version: 'one' })).toBe(false); // the schema does catch a broken version
  });

  it('notebook-cleanup targets cells that exist and leaves the expected cell order', async () => {
    const before = await sampleFiles();
    const nb0 = JSON.parse(before.get('nb/analysis.ipynb')!);
    expect([nb0.nbformat, nb0.nbformat_minor]).toEqual([4, 5]);
    expect(nb0.cells.find((c: Cell) => c.id === 'load-data')).toMatchObject({ execution_count: 2, outputs: [{ output_type: 'stream' }] });
    const { files } = await simulate(await load('notebook-cleanup.yaml'), before);
    const nb = JSON.parse(files.get('nb/analysis.ipynb')!) as { cells: Cell[] };
    expect(nb.cells.map((c) => c.id)).toEqual(['intro', 'new-3', 'imports', 'load-data', 'plot']);
    expect(nb.cells[3]).toMatchObject({ outputs: [], execution_count: null });
  });

  it('add-header adds the header to sources without one and leaves the one that has it', async () => {
    const before = await sampleFiles();
    const { files, changed } = await simulate(await load('add-header.ts'), before);
    expect(changed).not.toContain('packages/shared/src/format.ts');
    expect(changed).toHaveLength([...before.keys()].filter((p) => /^packages\/[^/]+\/src\/.*\.ts$/.test(p)).length - 1);
    for (const path of changed) expect(files.get(path)!.startsWith('// SPDX-License-Identifier: MIT\n')).toBe(true);
  });

  it('add-header.ts type-checks against defineRecipe', () => {
    const file = join(ROOT, 'recipes', 'add-header.ts');
    // The tests' tsconfig: the package's name is its sources there (no dist/ needed).
    const config = ts.getParsedCommandLineOfConfigFile(
      join(ROOT, 'test', 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(String(d.messageText));
        },
      },
    );
    const program = ts.createProgram([file], { ...config!.options, noEmit: true, rootDir: ROOT });
    // The recipe file's own diagnostics (the sources are type-checked by `npm run typecheck`).
    const diagnostics = ts.getPreEmitDiagnostics(program, program.getSourceFile(file));
    expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  });
});

describe('the sample project', () => {
  it('holds plain LF text files only, about twenty of them', async () => {
    const files = await sampleFiles();
    expect(files.size).toBeGreaterThanOrEqual(15);
    expect(files.size).toBeLessThanOrEqual(25);
    for (const [path, text] of files) {
      expect(text.includes('\r'), path).toBe(false);
      expect(text.includes('\0'), path).toBe(false);
      expect(text.endsWith('\n'), path).toBe(true);
      if (path.endsWith('.json') || path.endsWith('.ipynb')) expect(() => JSON.parse(text), path).not.toThrow();
    }
  });

  it('becomes a git repository the examples can run on (git init + commit)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scion-sample-'));
    try {
      await cp(SAMPLE, dir, { recursive: true });
      const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
      git('init', '-q', '-b', 'main');
      git('add', '-A');
      git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'sample');
      const tracked = git('ls-files').trim().split('\n');
      expect(tracked).toEqual([...(await sampleFiles()).keys()].sort());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
