// `scion owners`: whose review each path needs, and why (the CODEOWNERS line that decided, per GitLab
// section), then every line the host skips or reads only in part. The answer comes from ownersAt; this
// prints it. Exit 2 when the commit has no CODEOWNERS file where the host looks.
import { resolve } from 'node:path';
import { ownersAt, type Dialect, type OwnersReport } from '../../owners/index.js';
import { EXIT_OK, EXIT_USAGE } from '../exit.js';
import type { CliIo } from '../io.js';

export interface OwnersFlags {
  readonly paths: readonly string[];
  readonly repo: string;
  readonly base?: string;
  readonly codeowners?: Dialect;
  readonly json: boolean;
}

export async function ownersCmd(io: CliIo, f: OwnersFlags): Promise<number> {
  const answer = await ownersAt({
    repo: resolve(io.cwd, f.repo),
    paths: f.paths,
    env: io.env,
    ...(f.base !== undefined ? { base: f.base } : {}),
    ...(f.codeowners !== undefined ? { dialect: f.codeowners } : {}),
  });
  if (!answer.ok) {
    const where = answer.locations.join(', ');
    io.stderr.write(`scion: ${answer.base} has no CODEOWNERS file where ${name(answer.dialect)} looks (${where}); add one, or pass --base or --codeowners.\n`);
    return EXIT_USAGE;
  }
  io.stdout.write(f.json ? `${JSON.stringify(answer.report, null, 2)}\n` : text(answer.report, answer.dialect));
  return EXIT_OK;
}

const name = (d: Dialect) => (d === 'gitlab' ? 'GitLab' : 'GitHub');

function text(r: OwnersReport, dialect: Dialect): string {
  const out = [`${r.file} (as ${name(dialect)} reads it)\n`];
  const width = Math.min(60, Math.max(4, ...r.paths.map((p) => p.path.length)));
  for (const p of r.paths) {
    const owners = p.owners.length === 0 ? '(no owner)' : p.owners.join(' ');
    const why = p.rules.map((k) => `${r.file}:${k.line}${k.section === null ? '' : ` [${k.section}]`} ${k.pattern}`).join('; ');
    out.push(`${p.path.padEnd(width)}  ${owners}${why === '' ? '  (no rule matches)' : `  ← ${why}`}\n`);
  }
  if (r.skipped.length > 0) {
    out.push(`\nSkipped or read in part (${r.skipped.length}):\n`);
    for (const s of r.skipped) out.push(`  ${r.file}:${s.line}: ${JSON.stringify(s.text)}: ${s.reason}\n`);
  }
  return out.join('');
}
