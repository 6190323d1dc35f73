// A byte-level fingerprint of a folder (every file's path, mode and content hash), to prove a run
// left something untouched: the user's checkout, or a dry run's .git.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

export function digestTree(root: string, skip: (rel: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      if (skip(path)) continue;
      const full = join(root, path);
      const st = lstatSync(full);
      if (st.isDirectory()) {
        out.set(`${path}/`, `dir ${st.mode.toString(8)}`);
        walk(path);
      } else if (st.isSymbolicLink()) out.set(path, `link ${readlinkSync(full)}`);
      else out.set(path, `${st.mode.toString(8)} ${createHash('sha1').update(readFileSync(full)).digest('hex')}`);
    }
  };
  walk('');
  return out;
}

/** The differences between two digests, as readable lines (empty when identical). */
export function diffDigests(a: Map<string, string>, b: Map<string, string>): string[] {
  const lines: string[] = [];
  for (const [k, v] of a) if (b.get(k) !== v) lines.push(`${b.has(k) ? 'changed' : 'removed'}: ${k}`);
  for (const k of b.keys()) if (!a.has(k)) lines.push(`added: ${k}`);
  return lines;
}
