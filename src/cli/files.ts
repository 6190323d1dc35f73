// Every file the CLI writes (--report, --pr-body, --html, merge-reports' outputs) goes through here:
// redacted (SPEC §7), written to a temporary file beside its target and renamed into place, so a
// full disk or a kill never leaves a truncated report where the old one was. A refusal by the machine
// (disk full, permission, read-only) is an `environment` error naming the path and the fix.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { failure, ScionError } from '../errors.js';
import type { Redactor } from '../redact.js';

export async function writeOutputFile(file: string, text: string, redact: Redactor): Promise<void> {
  const dir = dirname(file);
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(temp, redact(text), { flag: 'wx' });
    await rename(temp, file);
  } catch (e) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw environmentError(e, file, 'write') ?? e;
  }
}

/** Errno codes that mean "the machine refused", with what the user can do about each. */
const REFUSALS: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full; free some space (or write it elsewhere) and run again',
  EDQUOT: 'the disk quota is used up; free some space (or write it elsewhere) and run again',
  EACCES: 'permission denied; choose a folder you may write to, or fix its permissions',
  EPERM: 'the operation is not permitted; choose a folder you may write to, or fix its permissions',
  EROFS: 'the file system is read-only; write it to a writable folder',
  ENOTDIR: 'a part of the path is a file, not a folder; choose another path',
  // mkdir -p of a folder where a file is.
  EEXIST: 'a part of the path is a file, not a folder; choose another path',
  EISDIR: 'the path is a folder; name a file',
  EMFILE: 'too many files are open; lower --concurrency or raise the limit (ulimit -n)',
};

/** An errno error as kind `environment` with one sentence, or undefined when it is no such refusal. */
export function environmentError(e: unknown, path?: string, verb: 'write' | 'use' = 'use'): ScionError | undefined {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !(code in REFUSALS)) return undefined;
  const where = path ?? (e as NodeJS.ErrnoException).path ?? 'a file';
  return new ScionError(failure('environment', `Cannot ${verb} ${where} (${code}): ${REFUSALS[code]}.`, { path: where, errno: code }));
}
