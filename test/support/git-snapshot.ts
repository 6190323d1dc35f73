// Every file under a folder (a `.git`), path → mode and bytes' hash: equal snapshots mean the
// folder is byte-identical (refs, objects, index, logs, config).
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      const key = relative(dir, p);
      if (st.isDirectory()) {
        out[`${key}/`] = `dir ${st.mode.toString(8)}`;
        walk(p);
      } else if (st.isSymbolicLink()) out[key] = `link ${readlinkSync(p)}`;
      else out[key] = `${st.mode.toString(8)} ${createHash('sha1').update(readFileSync(p)).digest('hex')}`;
    }
  };
  walk(dir);
  return out;
}
