// Temp repositories and worktrees a test made, removed after each test (newest first).
import { afterEach } from 'vitest';

export type Cleanup = () => Promise<void> | void;

export function cleanupAfterEach(): Cleanup[] {
  const cleanups: Cleanup[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  return cleanups;
}
