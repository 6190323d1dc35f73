// Every file the CLI writes (--report, --pr-body, --html, merge-reports' outputs) goes through here:
// redacted, written to a temporary file beside its target and renamed into place, so a
// full disk or a kill never leaves a truncated report where the old one was. A refusal by the machine
// (disk full, permission, read-only) is an `environment` error naming the path and the fix.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { environmentError } from './environment.js';
import type { Redactor } from '../api/text.js';

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
