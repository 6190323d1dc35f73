// A process that takes a ref's lock exactly as scion's updateRef does (the lock with its content,
// linked from its owner's file) and then holds it until it is killed: a scion caught by kill -9 in
// the middle of a ref update. Prints "held" once the lock is on disk.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { openRepo } from '../../src/git/index.js';
import { refPath } from '../../src/git/refs.js';
import { takeRefLock } from '../../src/git/ref-lock.js';

const [dir, ref, oid] = process.argv.slice(2) as [string, string, string];
const repo = await openRepo(dir);
const lock = `${refPath(repo, ref)}.lock`;
mkdirSync(dirname(lock), { recursive: true });
await takeRefLock(repo, ref, lock, Buffer.from(`${oid}\n`));
process.stdout.write('held\n');
setInterval(() => undefined, 60_000);
