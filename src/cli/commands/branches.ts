// `scion branches [--prune] [--remote R] [--report FILE]`: flags → the API's options, entries → lines.
import { branches } from '../../api/branches.js';
import type { Args } from '../args.js';
import type { CliIo } from '../io.js';

export async function run(io: CliIo, a: Args): Promise<number> {
  const prune = a['prune'] === true;
  const r = await branches({
    prune,
    ...(a['remote'] !== undefined ? { remote: String(a['remote']) } : {}),
    repo: String(a['repo']),
    ...(a['report'] !== undefined ? { report: String(a['report']) } : {}),
    ...(a['cacheDir'] !== undefined ? { cacheDir: String(a['cacheDir']) } : {}),
    cwd: io.cwd,
    env: io.env,
  });
  for (const p of r.problems) io.stderr.write(`scion: ${p}\n`);
  let code = r.problems.length > 0 ? 1 : 0;
  for (const repo of r.repositories) {
    const prefix = repo.id === null ? '' : `${repo.id}: `;
    if (repo.error !== null) {
      io.stderr.write(`scion: ${repo.error}\n`);
      code = 1;
      continue;
    }
    for (const e of repo.entries) {
      const where = e.where === 'local' ? e.branch : `${e.branch} on ${e.where}`;
      const verb = e.action === 'deleted' ? (prune ? 'deleted' : 'would delete') : 'kept';
      io.stdout.write(`${prefix}${verb} ${where} (${e.reason})\n`);
    }
    if (repo.entries.length === 0) io.stdout.write(`${prefix}no scion branches\n`);
  }
  return code;
}
