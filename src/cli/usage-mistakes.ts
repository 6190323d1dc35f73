// Usage mistakes, said as one sentence with the fix: yargs finds them (strict parsing, missing
// values, checks), this module words them and adds "did you mean" for close flag and command names.
import { PLAN_REFUSES } from './flags/run-options.js';

export interface UsageContext {
  readonly argv: readonly string[];
  /** The command the line names (first word that is not a flag), if any. */
  readonly command: string | undefined;
  /** Every command name. */
  readonly commands: readonly string[];
  /** The long flags the command accepts, without dashes. */
  readonly flags: () => Promise<readonly string[]>;
}

/** The closest of `candidates` to `word`, when it is close enough to be a typo; else undefined. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[-_]/g, '');
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    // `--dryrun` for `--dry-run`, `--keepWorktrees` for `--keep-worktrees`: the same word.
    const d = norm(c) === norm(word) ? 0 : distance(word.toLowerCase(), c.toLowerCase());
    if (d < bestScore) {
      bestScore = d;
      best = c;
    }
  }
  // One edit in four characters, at most three: `concurency`, `prbody`, `jsno`; not `x` for `pr`.
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 4)));
  return best !== undefined && bestScore <= limit ? best : undefined;
}

/** Optimal string alignment distance (Levenshtein plus transpositions of neighbours). */
function distance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]!.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]!.push(d);
    }
  }
  return rows[a.length]![b.length]!;
}

/** The sentence for a usage mistake yargs reported as `msg` (yargs' English wording, locale pinned). */
export async function shapeUsage(msg: string, ctx: UsageContext): Promise<string> {
  const cmd = ctx.command;
  const unknown = /^Unknown arguments?: (.+)$/s.exec(msg);
  if (unknown) {
    const names = unknown[1]!.split(', ').map((s) => s.trim());
    const first = names[0]!;
    if (cmd === undefined || !ctx.commands.includes(cmd)) return unknownCommand(first, ctx.commands);
    const flagNames = await ctx.flags();
    const sentences = names.map((name) => {
      const given = ctx.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`) || a === `-${name}`);
      if (given === undefined) return `scion ${cmd} takes no argument "${name}" here`;
      if (cmd === 'plan' && PLAN_REFUSES.has(name))
        return `--${name} cannot go with plan or --dry-run: a dry run writes no branch to push and keeps no worktree; use scion run, or drop --${name}`;
      const near = closest(name, flagNames);
      return `scion ${cmd} has no option ${given.split('=')[0]}${near === undefined ? '' : `: did you mean --${near}?`}`;
    });
    return `${sentences.join('; ')}${sentences.at(-1)!.endsWith('?') ? '' : '.'}`;
  }
  const recommended = /^Did you mean (.+)\?$/.exec(msg);
  if (recommended) return `Unknown command "${cmd ?? ''}": did you mean ${recommended[1]}? (${commandList(ctx.commands)})`;
  const missing = /^Not enough arguments following: (.+)$/.exec(msg);
  if (missing) return `--${missing[1]} needs a value.`;
  if (/^Not enough non-option arguments/.test(msg) && cmd !== undefined && ctx.commands.includes(cmd)) {
    return `scion ${cmd} needs at least one recipe file (for example: scion ${cmd} recipes/rename-logger.yaml).`;
  }
  if (/^Too many non-option arguments/.test(msg) && cmd !== undefined) return `scion ${cmd} takes no recipe or other argument here.`;
  return msg;
}

function unknownCommand(name: string, commands: readonly string[]): string {
  const near = closest(name, commands);
  return `Unknown command "${name}"${near === undefined ? '' : `: did you mean ${near}?`} (${commandList(commands)})`;
}

function commandList(commands: readonly string[]): string {
  return `commands: ${commands.join(', ')}`;
}
