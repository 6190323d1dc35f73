// A refusal by the machine (disk full, permission, read-only, a missing folder) as kind `environment`
// with one sentence naming the path: for files the CLI writes and for any error that reaches the exit
// code. Apart from files.ts, so that mapping an error loads no file writing (nor node:crypto).
import { refusalOf, ScionError } from '../api/errors.js';

/** An errno error as kind `environment` with one sentence (src/refusal.ts), or undefined when it is no such refusal. */
export function environmentError(e: unknown, path?: string, verb: 'write' | 'use' = 'use'): ScionError | undefined {
  const refusal = refusalOf(e, { ...(path !== undefined ? { path } : {}), action: verb, userPath: true });
  if (refusal === null) return undefined;
  const data = { path: refusal.path, errno: refusal.errno, ...(refusal.at !== null ? { at: refusal.at } : {}) };
  return new ScionError('environment', refusal.message, { data });
}
