// git's safe.directory rule (setup.c `ensure_valid_ownership`), applied as git 2.39+ applies it:
// a repository whose git dir, checkout top or `.git` file is owned by another user is refused
// unless `safe.directory` in the protected config (system, global, command line; never the
// repository's own) names it or is `*`. Root may use a root-owned repository, and under sudo the
// repository of the user in SUDO_UID. scion refuses the same repositories, so it never leaves
// objects owned by root in someone else's repository.
import { lstatSync, realpathSync } from 'node:fs';
import type { ScionError } from '../errors.js';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { globalConfigFiles } from './config.js';
import { gitError } from './errors.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface Ownership {
  /** Files git checks: the `.git` file of a linked worktree, the checkout top, the git dir. */
  readonly gitFile: string | null;
  readonly workTree: string | null;
  readonly gitDir: string;
}

/** null when git would open the repository; else the environment error to report. */
export function safeDirectoryRefusal(o: Ownership, env: Env): ScionError | null {
  const euid = typeof process.geteuid === 'function' ? process.geteuid() : null;
  if (euid === null) return null;
  let notOwned: { path: string; uid: number } | null = null;
  for (const path of [o.gitFile, o.workTree, o.gitDir]) {
    if (path === null) continue;
    const uid = lstatUid(path);
    if (uid === null || !ownedBy(uid, euid, env)) {
      notOwned = { path, uid: uid ?? -1 };
      break;
    }
  }
  if (notOwned === null) return null;
  const dir = o.workTree ?? o.gitDir;
  if (isSafe(dir, env)) return null;
  return gitError(
    'environment',
    `${dir} is owned by another user (${notOwned.path} has uid ${notOwned.uid}, scion runs as uid ${euid}), and git refuses such a repository; run ` +
      `scion as its owner, or if you trust it, run \`git config --global --add safe.directory ${dir}\`.`,
    { path: dir, owner: notOwned.uid, uid: euid },
  );
}

function lstatUid(path: string): number | null {
  try {
    return lstatSync(path).uid;
  } catch {
    return null;
  }
}

/** git-compat-util.h `is_path_owned_by_current_uid`. */
function ownedBy(uid: number, euid: number, env: Env): boolean {
  if (uid === euid) return true;
  if (euid === 0) {
    const sudo = env['SUDO_UID'];
    if (sudo !== undefined && /^\d+$/.test(sudo) && Number(sudo) === uid) return true;
  }
  return false;
}

function isSafe(dir: string, env: Env): boolean {
  const target = normalize(dir);
  let safe = false;
  for (const raw of protectedValues(env)) {
    if (raw === true || raw === '') {
      // An empty value resets the list.
      safe = false;
      continue;
    }
    if (raw === '*') {
      safe = true;
      continue;
    }
    const value = normalize(interpolate(raw, env));
    if (value.endsWith('/*')) {
      if (target.startsWith(value.slice(0, -1))) safe = true;
    } else if (value === target) {
      safe = true;
    }
  }
  return safe;
}

/** Every safe.directory value of the system, global and command-line config, in git's order. */
function protectedValues(env: Env): (string | true)[] {
  const files = globalConfigFiles(env);
  const out: (string | true)[] = [];
  for (const entries of files) for (const e of entries) if (e.section === 'safe' && e.key === 'directory') out.push(e.value);
  out.push(...commandLineValues(env));
  return out;
}

/** `git -c safe.directory=…` reaches child processes as GIT_CONFIG_PARAMETERS; also GIT_CONFIG_COUNT. */
function commandLineValues(env: Env): string[] {
  const out: string[] = [];
  const params = env['GIT_CONFIG_PARAMETERS'];
  if (params) {
    // Entries are shell-quoted: 'key=value' or 'key'='value'.
    for (const m of params.matchAll(/'([^']*)'(?:='([^']*)')?/g)) {
      const [key, value] = m[2] !== undefined ? [m[1] as string, m[2]] : splitOnce(m[1] as string);
      if (key.toLowerCase() === 'safe.directory') out.push(value);
    }
  }
  const count = Number(env['GIT_CONFIG_COUNT'] ?? 0);
  for (let i = 0; i < count; i++) {
    if ((env[`GIT_CONFIG_KEY_${i}`] ?? '').toLowerCase() === 'safe.directory') out.push(env[`GIT_CONFIG_VALUE_${i}`] ?? '');
  }
  return out;
}

function splitOnce(s: string): [string, string] {
  const i = s.indexOf('=');
  return i < 0 ? [s, ''] : [s.slice(0, i), s.slice(i + 1)];
}

function interpolate(value: string, env: Env): string {
  if (value === '~' || value.startsWith('~/')) return join(env['HOME'] ?? homedir(), value.slice(1));
  return value;
}

function normalize(p: string): string {
  const star = p.endsWith('/*');
  const base = star ? p.slice(0, -2) : p;
  let real: string;
  try {
    real = realpathSync(base);
  } catch {
    real = resolve(base);
  }
  return star ? `${real}/*` : real;
}
