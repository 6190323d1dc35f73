// A process that takes a ref's lock exactly as scion's updateRef does (lock file, content, record of
// its owner) and then holds it until it is killed: a scion caught by kill -9 in the middle of a ref
// update. Prints "held" once the lock and its record are on disk.
import { closeSync, fsyncSync, mkdirSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { openRepo } from '../../src/git/index.js';
import { refPath } from '../../src/git/refs.js';
import { openRefLock, recordRefLock } from '../../src/git/ref-lock.js';

const [dir, ref, oid] = process.argv.slice(2) as [string, string, string];
const repo = await openRepo(dir);
const lock = `${refPath(repo, ref)}.lock`;
mkdirSync(dirname(lock), { recursive: true });
const fd = openRefLock(repo, ref, lock);
writeSync(fd, `${oid}\n`);
fsyncSync(fd);
recordRefLock(repo, lock, fd);
closeSync(fd);
process.stdout.write('held\n');
setInterval(() => undefined, 60_000);
