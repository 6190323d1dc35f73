// Positional reads of a file already open, for packs and their indexes: one read may return fewer
// bytes than asked, and a file cut short (or shortened since it was measured) returns 0 at its end,
// where the loop must stop instead of asking again forever.
import { readSync } from 'node:fs';

/** Fills `buf` from `fd` at `at`; how many bytes were read (fewer than `buf.length` when the file ends first). */
export function readAt(fd: number, buf: Buffer, at: number): number {
  let done = 0;
  while (done < buf.length) {
    const n = readSync(fd, buf, done, buf.length - done, at + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}
