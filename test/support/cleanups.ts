// Temp repositories and worktrees a test made, removed after each test (newest first).
import { afterEach } from 'vitest';
import { gitRepo, type TestRepo } from './git-repo.js';

export type Cleanup = () => Promise<void> | void;

export function cleanupAfterEach(): Cleanup[] {
  const cleanups: Cleanup[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  return cleanups;
}

/** `gitRepo`, with each repository removed after the test that made it. */
export function reposAfterEach(): (...args: Parameters<typeof gitRepo>) => Promise<TestRepo> {
  const cleanups = cleanupAfterEach();
  return async (...args) => {
    const r = await gitRepo(...args);
    cleanups.push(r.cleanup);
    return r;
  };
}
