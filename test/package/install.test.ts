// The package installs as a user installs it: from a tarball (`npm pack`, which is what the registry
// serves) and from a git URL (what `npm install github:OWNER/REPO` does: clone, install the dev
// dependencies, run `prepare`). Both start from the project's files alone, with no dist/ built, and
// end with `npx scion` running a YAML recipe and a TypeScript recipe that imports `defineRecipe` from
// the package name, as the README tells users to (a transform step, run in its worker thread, and an
// astgrep step, run in the structural engine's child process); the package's types check a user's
// TypeScript and its bundle carries source maps; installed beside a yarn workspace, it works on it.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitEnv } from '../support/git-repo.js';

const run = promisify(execFile);
const ROOT = new URL('../..', import.meta.url).pathname;
const PKG = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const NPM_ENV = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', npm_config_prefer_offline: 'true' };

let work: string;

/** The project's tracked (and new, not ignored) files in a fresh folder: no dist/, no node_modules. */
async function sourceCopy(to: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, maxBuffer: 64 << 20 });
  for (const file of stdout.split('\0').filter(Boolean)) {
    await mkdir(join(to, file, '..'), { recursive: true });
    await cp(join(ROOT, file), join(to, file)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e; // a file deleted in the work tree but still in the index
    });
  }
}

/** A git repository with one file for the installed scion to work on. */
async function targetRepo(dir: string): Promise<void> {
  await mkdir(join(dir, 'src'), { recursive: true });
  await writeFile(join(dir, 'src', 'a.ts'), "export const greet = () => legacyLog('hi');\n");
  const git = (...args: string[]) => run('git', args, { cwd: dir, env: gitEnv() });
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init');
}

/** The installed package's types check a user's TypeScript (and are not `any`), and its bundle has source maps. */
async function typesAndMaps(project: string): Promise<void> {
  const installed = join(project, 'node_modules', PKG.name);
  for (const map of ['dist/index.js.map', 'dist/cli/process.js.map']) {
    const parsed = JSON.parse(await readFile(join(installed, map), 'utf8')) as { sources: string[]; mappings: string };
    expect(parsed.mappings.length).toBeGreaterThan(0);
    expect(parsed.sources.some((s) => s.endsWith('.ts'))).toBe(true);
  }
  await writeFile(
    join(project, 'typed.ts'),
    [
      `import { defineRecipe, ScionError, type RecipeInput } from '${PKG.name}';`,
      "const recipe: RecipeInput = defineRecipe({ name: 'typed', steps: [{ replace: { old_string: 'a', new_string: 'b' } }] });",
      'export const name: string = recipe.name;',
      'export const kind = (e: unknown): string | null => (e instanceof ScionError ? e.kind : null);',
      '// @ts-expect-error: no step kind is called `nope`',
      "defineRecipe({ name: 'wrong', steps: [{ nope: 1 }] });",
      '',
    ].join('\n'),
  );
  const tsconfig = {
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2023', strict: true, noEmit: true, skipLibCheck: true, types: [] },
    files: ['typed.ts'],
  };
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
  await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(project, 'tsconfig.json')], { cwd: project });
}

/** Runs the installed CLI in `project` on a fresh repository with a YAML and a TypeScript recipe. */
async function useInstalled(project: string): Promise<void> {
  const version = await run('npx', ['--no-install', 'scion', '--version'], { cwd: project, env: NPM_ENV });
  expect(version.stdout.trim()).toBe(PKG.version);

  const repo = join(project, 'repo');
  await targetRepo(repo);
  await writeFile(join(project, 'rename.yaml'), 'name: rename\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n');
  await writeFile(
    join(project, 'header.ts'),
    [
      `import { defineRecipe } from '${PKG.name}';`,
      'export default defineRecipe({',
      "  name: 'header',",
      '  steps: [',
      "    { transform: ({ content }) => '// header\\n' + content },",
      "    { astgrep: { rule: { pattern: 'legacyLog($$$A)' }, fix: 'log($$$A)', language: 'typescript' } },",
      '  ],',
      '});',
      '',
    ].join('\n'),
  );
  const env = { ...NPM_ENV, ...gitEnv(), PATH: process.env['PATH'] };
  await run('npx', ['--no-install', 'scion', 'run', join(project, 'rename.yaml'), '--repo', repo], { cwd: project, env });
  await run('npx', ['--no-install', 'scion', 'run', join(project, 'header.ts'), '--repo', repo], { cwd: project, env });
  const show = (ref: string) => run('git', ['show', `${ref}:src/a.ts`], { cwd: repo, env: gitEnv() }).then((r) => r.stdout);
  expect(await show('scion/rename')).toBe("export const greet = () => log('hi');\n");
  expect(await show('scion/header')).toBe("// header\nexport const greet = () => log('hi');\n");
  await typesAndMaps(project);
}

/**
 * Installed in a folder of its own beside a yarn 4 workspace (one npm cannot install into: its
 * packages are named like `$repo-utils` and depend on each other with `workspace:*`), scion works on
 * the workspace through --repo and leaves its checkout as it was, as the README tells yarn and pnpm users.
 */
async function besideAWorkspace(project: string): Promise<void> {
  const mono = join(work, 'yarn-workspace');
  await mkdir(join(mono, 'packages', 'utils', 'src'), { recursive: true });
  await writeFile(join(mono, 'package.json'), JSON.stringify({ name: 'mono', private: true, packageManager: 'yarn@4.5.0', workspaces: ['packages/*'] }));
  await writeFile(
    join(mono, 'packages', 'utils', 'package.json'),
    JSON.stringify({ name: '$repo-utils', version: '0.0.0', dependencies: { '$repo-core': 'workspace:*' } }),
  );
  await writeFile(join(mono, 'packages', 'utils', 'src', 'a.ts'), "legacyLog('x');\n");
  const git = (...args: string[]) => run('git', args, { cwd: mono, env: gitEnv() });
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init');
  const env = { ...NPM_ENV, ...gitEnv(), PATH: process.env['PATH'] };
  const bin = join(project, 'node_modules', '.bin', 'scion');
  await run(bin, ['run', join(project, 'rename.yaml'), '--repo', mono], { cwd: mono, env });
  expect((await git('show', 'scion/rename:packages/utils/src/a.ts')).stdout).toBe("log('x');\n");
  expect((await git('status', '--porcelain')).stdout).toBe('');
}

async function freshProject(name: string): Promise<string> {
  const dir = join(work, name);
  await mkdir(dir);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: `try-${name}`, version: '1.0.0', private: true, type: 'module' }));
  return dir;
}

describe('installing the package', { timeout: 300_000 }, () => {
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'scion-install-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('npm pack builds dist from the sources, and the tarball installs and runs', async () => {
    const src = join(work, 'src-pack');
    await sourceCopy(src);
    // The dependencies are the project's own (no download): `prepare` builds dist/ with them.
    await symlink(join(ROOT, 'node_modules'), join(src, 'node_modules'), 'dir');
    const packed = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: src, env: NPM_ENV, maxBuffer: 64 << 20 });
    const [info] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
    const files = info.files.map((f) => f.path);
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('dist/index.js.map');
    expect(files).toContain('dist/recipe.schema.json');
    expect(files).toContain('bin/scion.js');
    expect(files.some((f) => f.startsWith('src/') || f.startsWith('test/'))).toBe(false);

    const project = await freshProject('tarball');
    await run('npm', ['install', join(work, info.filename)], { cwd: project, env: NPM_ENV, maxBuffer: 64 << 20 });
    await useInstalled(project);
    await besideAWorkspace(project);
  });

  it('npm install from a git URL runs prepare and gives a working scion', async () => {
    const src = join(work, 'src-git');
    await sourceCopy(src);
    const git = (...args: string[]) => run('git', args, { cwd: src, env: gitEnv() });
    await git('init', '-q', '-b', 'main');
    await git('add', '-A');
    await git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'release');

    const project = await freshProject('git');
    await run('npm', ['install', `git+file://${src}`], { cwd: project, env: NPM_ENV, maxBuffer: 64 << 20 });
    await useInstalled(project);
  });
});
