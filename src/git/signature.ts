// Who a commit is by, as `git commit` decides it (ident.c): GIT_AUTHOR_NAME/EMAIL/DATE and
// GIT_COMMITTER_NAME/EMAIL/DATE from the environment first, then author.* / committer.* and user.*
// from the config (system < global < repository < worktree), then EMAIL, then a default. A recipe's
// `author` is like `git commit --author`: it names the author, not the committer.
import { join } from 'node:path';
import { configValue, globalConfigFiles, readConfigFile, type ConfigEntry } from './config.js';
import { gitDateFromEnv } from './git-date.js';
import type { Identity } from './identity-format.js';
import { repoState, type Repo } from './repo.js';
import type { Env } from './safe-directory.js';

/**
 * The author (this object's own fields) and the committer of the commits to write. `timestamp`
 * is set only when the environment dates the commit; otherwise the caller's clock does.
 */
export interface Signatures extends Identity {
  readonly committer: Identity;
  /**
   * `commit.gpgsign` is true: git would sign, scion does not (it never runs gpg or hooks). The
   * runner says so once.
   */
  readonly gpgSignIgnored: boolean;
}

export interface SignatureOptions {
  readonly env?: Env;
  /** The recipe's `author` (git's --author). */
  readonly author?: { readonly name: string; readonly email: string };
  /** Used when neither environment nor config names anyone. */
  readonly fallback: { readonly name: string; readonly email: string };
}

export function commitSignatures(repo: Repo, opts: SignatureOptions): Signatures {
  const env = opts.env ?? process.env;
  const layers: ConfigEntry[][] = [
    ...globalConfigFiles(env),
    [...repoState(repo).config],
    // With extensions.worktreeConfig, a linked worktree may carry its own config.
    readConfigFile(join(repo.gitDir, 'config.worktree')),
    commandLineConfig(env),
  ];
  const cfg = (section: string, key: string): string | undefined => {
    let v: string | undefined;
    for (const entries of layers) {
      const x = configValue(entries, section, key);
      if (typeof x === 'string') v = x;
    }
    return v === '' ? undefined : v;
  };
  const pick = (role: 'author' | 'committer'): Identity => {
    const up = role.toUpperCase();
    const given = role === 'author' ? opts.author : undefined;
    const name =
      given?.name ??
      nonEmpty(env[`GIT_${up}_NAME`]) ??
      cfg(role, 'name') ??
      cfg('user', 'name') ??
      (role === 'committer' ? opts.author?.name : undefined) ??
      opts.fallback.name;
    const email =
      given?.email ??
      nonEmpty(env[`GIT_${up}_EMAIL`]) ??
      cfg(role, 'email') ??
      cfg('user', 'email') ??
      nonEmpty(env['EMAIL']) ??
      (role === 'committer' ? opts.author?.email : undefined) ??
      opts.fallback.email;
    const dateVar = `GIT_${up}_DATE`;
    const raw = nonEmpty(env[dateVar]);
    return raw === undefined ? { name, email } : { name, email, ...gitDateFromEnv(dateVar, raw) };
  };
  let gpg = false;
  for (const entries of layers) {
    const x = configValue(entries, 'commit', 'gpgsign');
    if (x !== undefined) gpg = x === true || /^(true|yes|on|1)$/i.test(x);
  }
  return { ...pick('author'), committer: pick('committer'), gpgSignIgnored: gpg };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

/** `git -c key=value` as child processes see it (GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n). */
function commandLineConfig(env: Env): ConfigEntry[] {
  const out: ConfigEntry[] = [];
  const count = Number(env['GIT_CONFIG_COUNT'] ?? 0);
  for (let i = 0; i < count; i++) {
    const key = (env[`GIT_CONFIG_KEY_${i}`] ?? '').toLowerCase();
    const dot = key.lastIndexOf('.');
    if (dot > 0) out.push({ section: key.slice(0, dot), key: key.slice(dot + 1), value: env[`GIT_CONFIG_VALUE_${i}`] ?? '' });
  }
  return out;
}
