// `scion worktrees [--prune]`: scion's linked worktrees, one line each (the API says what each is doing).
import { worktrees } from '../../api/worktrees.js';
import type { Args } from '../args.js';
import type { CliIo } from '../io.js';

export async function run(io: CliIo, a: Args): Promise<number> {
  const entries = await worktrees({ repo: String(a['repo']), prune: a['prune'] === true, cwd: io.cwd });
  if (entries.length === 0) io.stdout.write('No scion worktrees.\n');
  for (const w of entries) {
    if (w.removed) io.stdout.write(`removed  ${w.path}  ${w.at}\n`);
    else io.stdout.write(`${w.state.padEnd(8)} ${w.path}  ${w.at}${w.pid !== null ? `  (pid ${w.pid})` : ''}\n`);
  }
  return 0;
}
