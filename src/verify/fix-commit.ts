// The fix's own commit (group `fix`): what the fix rounds changed on top of what the steps left.
// Both sides are the job's changes against the base; a path the fix put back to its base state is
// a change in this commit too, so the caller passes the base's state of such paths.
import type { Changes, FileState } from '../workspace/types.js';

export const FIX_GROUP = 'fix';

export function fixChanges(
  beforeFix: Changes,
  afterFix: Changes,
  baseState: (path: string) => FileState | null,
): Map<string, FileState | null> {
  const out = new Map<string, FileState | null>();
  for (const path of new Set([...beforeFix.keys(), ...afterFix.keys()])) {
    const was = beforeFix.has(path) ? (beforeFix.get(path) ?? null) : baseState(path);
    const now = afterFix.has(path) ? (afterFix.get(path) ?? null) : baseState(path);
    if (!sameState(was, now)) out.set(path, now);
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function sameState(a: FileState | null, b: FileState | null): boolean {
  if (a === null || b === null) return a === b;
  return a.mode === b.mode && Buffer.from(a.bytes).equals(Buffer.from(b.bytes));
}
