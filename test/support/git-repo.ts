// gitRepo({...}): a real repository in a temp folder, made and judged with native git.
// Native git runs with the machine's system/global config and any GIT_* variables shut out, so a
// developer's ~/.gitconfig (or a git hook running the tests) cannot change what a test sees.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export type RepoFile = string | Uint8Array | { content: string | Uint8Array; mode?: 'exec' | 'symlink' };

export interface GitRepoOptions {
  /** Run `git gc` after the commit, so objects and refs are packed. */
  packed?: boolean;
  /** Name of the initial branch. Default 'main'. */
  branch?: string;
}

export interface TestRepo {
  /** Real path of the repository's top folder. */
  dir: string;
  /** Runs native git in `dir`; returns stdout with trailing whitespace removed (leading kept: porcelain lines start with a space). */
  git: (...args: string[]) => string;
  /** The sha of HEAD. */
  head: () => string;
  cleanup: () => Promise<void>;
}

/** The environment native git runs with in tests. */
export function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  return { ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' };
}

/** Runs native git in `cwd` (see gitEnv) and returns stdout without trailing whitespace. */
export function runGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 }).trimEnd();
}

export async function writeRepoFiles(dir: string, files: Record<string, RepoFile>): Promise<void> {
  for (const [path, spec] of Object.entries(files)) {
    const abs = join(dir, path);
    await mkdir(dirname(abs), { recursive: true });
    const { content, mode } = typeof spec === 'string' || spec instanceof Uint8Array ? { content: spec, mode: undefined } : spec;
    await rm(abs, { force: true, recursive: true });
    if (mode === 'symlink') {
      await symlink(typeof content === 'string' ? content : Buffer.from(content).toString('utf8'), abs);
    } else {
      await writeFile(abs, content);
      if (mode === 'exec') await chmod(abs, 0o755);
    }
  }
}

export async function gitRepo(files: Record<string, RepoFile>, opts: GitRepoOptions = {}): Promise<TestRepo> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'scion-repo-')));
  const git = (...args: string[]): string => runGit(dir, ...args);
  git('init', '-q', '-b', opts.branch ?? 'main');
  git('config', 'user.name', 'Test User');
  git('config', 'user.email', 'test@example.com');
  git('config', 'commit.gpgsign', 'false');
  // No background `gc --auto` racing a test's own view of the object store.
  git('config', 'gc.auto', '0');
  await writeRepoFiles(dir, files);
  git('add', '-A');
  git('commit', '-q', '--allow-empty', '-m', 'initial');
  if (opts.packed) git('gc', '-q');
  return {
    dir,
    git,
    head: () => git('rev-parse', 'HEAD'),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
