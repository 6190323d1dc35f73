// The user's name and email as git would pick them for a commit: repository config first, then
// the global ~/.gitconfig, then $XDG_CONFIG_HOME/git/config (default ~/.config/git/config).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { configValue, readConfigFile } from './config.js';
import { repoState, type Repo } from './repo.js';

export interface IdentityOptions {
  /** Home folder for the global config. Default: os.homedir(). Pass a folder to isolate tests. */
  home?: string;
  /** Default: <home>/.config. */
  xdgConfigHome?: string;
}

export async function gitIdentity(repo: Repo, opts: IdentityOptions = {}): Promise<{ name: string; email: string } | null> {
  const home = opts.home ?? homedir();
  const files = [
    readConfigFile(join(opts.xdgConfigHome ?? join(home, '.config'), 'git', 'config')),
    readConfigFile(join(home, '.gitconfig')),
    repoState(repo).config,
    // With extensions.worktreeConfig, a linked worktree may carry its own config.
    readConfigFile(join(repo.gitDir, 'config.worktree')),
  ];
  // Later files win, as in git's system < global < local < worktree order.
  let name: string | undefined;
  let email: string | undefined;
  for (const entries of files) {
    const n = configValue(entries, 'user', 'name');
    const e = configValue(entries, 'user', 'email');
    if (typeof n === 'string') name = n;
    if (typeof e === 'string') email = e;
  }
  return name && email ? { name, email } : null;
}
