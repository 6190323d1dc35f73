// Creating a file in a folder that native git may remove meanwhile. `git gc` (pack-refs, prune-packed)
// removes empty folders under refs/ and objects/, so a folder made a moment ago can be gone when the
// file inside it is created. git's answer (`raceproof_create_file`) is to create the folder again and
// retry; this is the same, with a few more tries because a gc loop can win more than once.
import { mkdirSync } from 'node:fs';
import { errnoCode, refusalToGitError } from './errors.js';

const TRIES = 8;

/**
 * Runs `create` (which makes one file inside `dir`); when it fails because `dir` is missing, makes
 * `dir` and runs it again. Any other failure, and the last ENOENT, are thrown as `create` threw them.
 */
export function raceproofCreate<T>(dir: string, create: () => T): T {
  for (let attempt = 0; ; attempt++) {
    try {
      return create();
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT' || attempt >= TRIES) throw err;
    }
    try {
      mkdirSync(dir, { recursive: true });
    } catch (err) {
      throw refusalToGitError(err, dir, 'create the folder');
    }
  }
}
