// Replacing a git file (HEAD, an index) the way git does: write <file>.lock with O_EXCL, rename over.
import { closeSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { errnoCode, gitError } from './errors.js';

export function writeFileLocked(path: string, content: string | Uint8Array, holder = `another git process is changing ${path}`): void {
  const lock = `${path}.lock`;
  let fd: number;
  try {
    fd = openSync(lock, 'wx', 0o666);
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') throw err;
    throw gitError('locked', `${lock} exists: ${holder}; if none is running, delete the lock file and try again.`, { lock });
  }
  try {
    const buf = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    writeSync(fd, buf, 0, buf.length);
    closeSync(fd);
    renameSync(lock, path);
  } catch (err) {
    try {
      closeSync(fd);
    } catch {
      // Already closed.
    }
    try {
      unlinkSync(lock);
    } catch {
      // Already renamed.
    }
    throw err;
  }
}
