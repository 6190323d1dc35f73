// Temp folders for recipe files: each test writes real files and loads them through loadRecipe.
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';

/** A temp folder removed after the test file; `write` returns the absolute path. */
export function tempFolder(): { write(name: string, text: string): Promise<string>; path(name: string): string } {
  let dir: string | undefined;
  const ensure = async () => (dir ??= await mkdtemp(join(tmpdir(), 'scion-recipe-')));
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return {
    async write(name, text) {
      const file = join(await ensure(), name);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
      return file;
    },
    path(name) {
      if (!dir) throw new Error('write a file first');
      return join(dir, name);
    },
  };
}

/** A YAML text from lines, so tests can count lines as they read them. */
export const lines = (...ls: string[]): string => `${ls.join('\n')}\n`;
