// Process checks for fault tests: is a pid still a live process (a zombie waiting for its reaper
// counts as gone), and polling for a condition another process brings about.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // Field 3 of /proc/<pid>/stat is the state; after the ")" that ends the command name.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Polls `cond` every 20 ms; throws after `limitMs` (a generous bound, not a timing assertion). */
export async function waitFor(cond: () => boolean, limitMs = 20_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until each file in `dir` holds a whole pid line (a shell's `echo $$ > f` may be seen half done). */
export async function pidsIn(dir: string, files: readonly string[]): Promise<number[]> {
  const read = (f: string): number | null => {
    try {
      const text = readFileSync(join(dir, f), 'utf8');
      return /^\d+\n$/.test(text) ? Number(text.trim()) : null;
    } catch {
      return null;
    }
  };
  await waitFor(() => files.every((f) => read(f) !== null));
  return files.map((f) => read(f)!);
}
