// `scion branches [--prune] [--remote R]` (SPEC §8): flags → pruning options, entries → lines.
import { resolve } from 'node:path';
import { closeRepo, openRepo } from '../../git/index.js';
import { pruneBranches } from '../../publish/prune.js';
import { HostError } from '../../publish/types.js';
import { makeRedactor } from '../../redact.js';
import type { CliIo } from '../io.js';
import { remoteContext } from './publish-context.js';


export interface BranchesFlags {
  prune: boolean;
  remote?: string;
  repo: string;
}

export async function branchesCmd(io: CliIo, flags: BranchesFlags): Promise<number> {
  const redact = makeRedactor(io.env);
  const repo = await openRepo(resolve(io.cwd, flags.repo));
  try {
    // --remote names a remote that must work; without it, origin's host is asked when it can be.
    const ctx = remoteContext(repo, flags.remote ?? 'origin', io.env, flags.remote !== undefined);
    const entries = await pruneBranches(repo, {
      host: ctx.host,
      ...(flags.remote !== undefined && ctx.push !== null ? { remote: ctx.push } : {}),
      baseTip: await ctx.baseTip(null),
      dryRun: !flags.prune,
    });
    for (const e of entries) {
      const where = e.where === 'local' ? e.branch : `${e.branch} on ${e.where}`;
      const verb = e.action === 'deleted' ? (flags.prune ? 'deleted' : 'would delete') : 'kept';
      io.stdout.write(redact(`${verb} ${where} (${e.reason})\n`));
    }
    if (entries.length === 0) io.stdout.write('no scion branches\n');
    return 0;
  } catch (e) {
    if (!(e instanceof HostError)) throw e;
    io.stderr.write(`scion: ${redact(e.message)}\n`);
    return 1;
  } finally {
    closeRepo(repo);
  }
}
