// `scion status --report FILE` / `scion status <recipe..> --repo DIR`: flags → the API's status
// options, rows → a table or JSON.
import { renderStatusTable } from '../../api/output.js';
import { status } from '../../api/status.js';
import type { Args } from '../args.js';
import type { CliIo } from '../io.js';

export async function run(io: CliIo, a: Args): Promise<number> {
  const recipes = a['recipe'] === undefined ? [] : Array.isArray(a['recipe']) ? a['recipe'].map(String) : [String(a['recipe'])];
  const r = await status({
    ...(a['report'] !== undefined ? { report: String(a['report']) } : {}),
    recipes,
    repo: String(a['repo']),
    ...(a['remote'] !== undefined ? { remote: String(a['remote']) } : {}),
    ...(a['cacheDir'] !== undefined ? { cacheDir: String(a['cacheDir']) } : {}),
    cwd: io.cwd,
    env: io.env,
  });
  for (const p of r.problems) io.stderr.write(`scion: ${p}\n`);
  io.stdout.write(a['json'] === true ? `${JSON.stringify(r.rows, null, 2)}\n` : renderStatusTable(r.rows, r.campaign ? { repos: true } : {}));
  return r.problems.length > 0 ? 1 : 0;
}
