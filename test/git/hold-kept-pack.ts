// A process that leaves in objects/pack what a scion killed while writing its job's objects would:
// a kept pack whose ref never moved, a pack cut short before its .idx (its .keep beside it), and the
// temporary files of a pack being written. Prints the blob it wrote, then waits until it is killed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ObjectBatch, openRepo } from '../../src/git/index.js';
import { keepText, tempNames } from '../../src/git/kept-packs.js';

const [dir] = process.argv.slice(2) as [string];
const repo = await openRepo(dir);
const batch = new ObjectBatch(repo);
const blob = batch.blob(Buffer.from(`written by ${process.pid}\n`));
batch.persist('refs/heads/scion/held');
const pack = join(dir, '.git', 'objects', 'pack');
const cut = `pack-${'c'.repeat(40)}`;
writeFileSync(join(pack, `${cut}.pack`), 'PACK cut short');
writeFileSync(join(pack, `${cut}.keep`), keepText('refs/heads/scion/cut'));
const { tmpPack, tmpIdx } = tempNames(pack);
writeFileSync(tmpPack, 'half a pack');
writeFileSync(tmpIdx, 'half an index');
process.stdout.write(`${blob}\n`);
setInterval(() => undefined, 60_000);
