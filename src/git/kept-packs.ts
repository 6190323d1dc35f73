// What a scion writing a pack leaves in objects/pack while it works, named so that a later run can
// tell its own leftovers from anyone else's: the temporary .pack and .idx being written, and the
// .keep that protects a job's new objects until its ref reaches them (object-batch.ts). A writer
// killed (kill -9, a crash, a reboot) between those steps leaves them behind; a .keep left so would
// keep its pack out of every `git repack` forever. A run clears them once its writer is gone: the
// .keep (its pack becomes git gc's like any other), a pack its .keep names that never got its .idx
// (no reader can see it), and the temporary files. Nothing of a live writer, native git's or a
// file named another way is touched.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { currentOwner, ownerAlive, ownerTag, parseOwnerTag, type LockOwner } from './process-owner.js';
import { repoState, type Repo } from './repo.js';

// `.tmp-<pid>-` is what `git repack` uses for the packs it is writing, and `git prune` leaves it
// alone (unlike git's `tmp_pack_`, which `git prune --expire=now` deletes under a running writer);
// `scion~<owner>~` after it says whose it is.
const TEMP = /^\.tmp-\d+-scion~(.+)~[0-9a-f]{12}-(pack|idx)$/;
const KEEP = /^scion (\S+): /;

/** The temporary names one pack is written under. */
export function tempNames(packDir: string): { tmpPack: string; tmpIdx: string } {
  const me = currentOwner();
  const stem = `.tmp-${me.pid}-scion~${ownerTag(me)}~${randomBytes(6).toString('hex')}`;
  return { tmpPack: join(packDir, `${stem}-pack`), tmpIdx: join(packDir, `${stem}-idx`) };
}

/** A .keep's text: the writer, then why (git's `index-pack --keep=<msg>` writes free text there too). */
export function keepText(reason: string): string {
  return `scion ${ownerTag(currentOwner())}: ${reason}\n`;
}

/** The writer a .keep names: scion's owner tag, or the bare pid earlier versions wrote; null for another's .keep. */
function keepOwner(text: string): LockOwner | null {
  const tag = KEEP.exec(text)?.[1];
  if (tag === undefined) return null;
  if (/^\d+$/.test(tag)) return { pid: Number(tag), start: null, host: currentOwner().host };
  return parseOwnerTag(tag);
}

/** Clears the pack files of scion writers that are gone (see the header). Best effort: a file that cannot go stays. */
export function sweepKeptPacks(repo: Repo): void {
  const dir = join(repoState(repo).store.objectsDir, 'pack');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const present = new Set(names);
  for (const name of names) {
    const temp = TEMP.exec(name);
    if (temp !== null) {
      const owner = parseOwnerTag(temp[1]!);
      if (owner !== null && !ownerAlive(owner)) unlinkQuietly(join(dir, name));
      continue;
    }
    if (!name.endsWith('.keep')) continue;
    let text: string;
    try {
      text = readFileSync(join(dir, name), 'utf8');
    } catch {
      continue;
    }
    const owner = keepOwner(text);
    if (owner === null || ownerAlive(owner)) continue;
    const stem = name.slice(0, -'.keep'.length);
    // A pack without its index was cut short before readers could see it: nothing reads it.
    if (!present.has(`${stem}.idx`)) unlinkQuietly(join(dir, `${stem}.pack`));
    unlinkQuietly(join(dir, name));
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already, or not ours to remove: left as it is.
  }
}
