// What changed between two states of a job, both given as changes against the base: the fix's own
// commit (group `fix`, on top of what the steps left) and a run step's recorded effect (on top of
// what earlier steps left) are both this. A path put back to its base state is a change too, so the
// caller passes the base's state of a path.
import type { Changes, FileState } from '../workspace/types.js';
import { compareCodeUnits } from '../util/compare.js';

export async function changesBetween(
  before: Changes,
  after: Changes,
  baseState: (path: string) => Promise<FileState | null>,
): Promise<Map<string, FileState | null>> {
  const out = new Map<string, FileState | null>();
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort(compareCodeUnits);
  for (const path of paths) {
    const was = before.has(path) ? (before.get(path) ?? null) : await baseState(path);
    const now = after.has(path) ? (after.get(path) ?? null) : await baseState(path);
    if (!sameState(was, now)) out.set(path, now);
  }
  return out;
}

function sameState(a: FileState | null, b: FileState | null): boolean {
  if (a === null || b === null) return a === b;
  return a.mode === b.mode && Buffer.from(a.bytes).equals(Buffer.from(b.bytes));
}
