// Shared by the benchmarks: timing a child process with its peak RSS (GNU time), a clean git
// environment, medians and a markdown table.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const HAS_TIME = existsSync('/usr/bin/time');

export interface Sample {
  readonly seconds: number;
  /** Peak RSS in KB (0 when /usr/bin/time is missing). */
  readonly rssKB: number;
  /** CPU seconds (user + system) of the process and its children, where /usr/bin/time measured them. */
  readonly cpu?: number;
}

/** process.env without GIT_* and with no user or system git config: runs are the same everywhere. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) e[k] = v;
  return { ...e, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', NO_COLOR: '1', CI: '1', ...extra };
}

/** Runs `cmd args` in `cwd`, timing it and taking its peak RSS; throws on a non-zero exit unless `okCodes` holds it. */
export function timed(
  cmd: string,
  args: readonly string[],
  cwd: string,
  o: { env?: NodeJS.ProcessEnv; input?: string | Buffer; okCodes?: readonly number[] } = {},
): Sample & { stdout: Buffer } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(HAS_TIME ? '/usr/bin/time' : cmd, HAS_TIME ? ['-f', '@@rss %M %U %S', cmd, ...args] : [...args], {
    cwd,
    env: o.env ?? cleanEnv(),
    input: o.input,
    maxBuffer: 1 << 30,
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const stderr = r.stderr?.toString('utf8') ?? '';
  if (!(o.okCodes ?? [0]).includes(r.status ?? -1)) {
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${stderr.slice(-2000)}${r.stdout?.toString('utf8').slice(-2000) ?? ''}`);
  }
  const m = /@@rss (\d+) ([\d.]+) ([\d.]+)/.exec(stderr);
  return { seconds, rssKB: m ? Number(m[1]) : 0, ...(m ? { cpu: Number(m[2]) + Number(m[3]) } : {}), stdout: r.stdout };
}

/** A sequence of timed native commands as one sample: times add up, RSS is the largest. */
export class Steps {
  seconds = 0;
  rssKB = 0;
  cpu = 0;
  private readonly t0 = process.hrtime.bigint();

  run(cmd: string, args: readonly string[], cwd: string, o: Parameters<typeof timed>[3] = {}): Buffer {
    const r = timed(cmd, args, cwd, o);
    this.rssKB = Math.max(this.rssKB, r.rssKB);
    this.cpu += r.cpu ?? 0;
    return r.stdout;
  }

  git(cwd: string, args: readonly string[], o: Parameters<typeof timed>[3] = {}): string {
    return this.run('git', args, cwd, o).toString('utf8').trimEnd();
  }

  /** Wall time since the Steps began (JS work between the commands included). */
  done(): Sample {
    return { seconds: Number(process.hrtime.bigint() - this.t0) / 1e9, rssKB: this.rssKB, cpu: this.cpu };
  }
}

export function sh(cwd: string, script: string, env: NodeJS.ProcessEnv = cleanEnv()): string {
  return execFileSync('/bin/sh', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 }).toString('utf8');
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

export const mb = (kb: number): string => (kb > 0 ? `${Math.round(kb / 1024)} MB` : '–');

export function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]): string => `| ${r.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** `git cat-file --batch` output ("<oid> <type> <size>\n<content>\n" each) as buffers. */
export function parseBatch(out: Buffer): Buffer[] {
  const result: Buffer[] = [];
  let p = 0;
  while (p < out.length) {
    const nl = out.indexOf(10, p);
    const size = Number(out.toString('utf8', p, nl).split(' ')[2]);
    result.push(out.subarray(nl + 1, nl + 1 + size));
    p = nl + 1 + size + 1;
  }
  return result;
}
