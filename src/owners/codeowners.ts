// Which CODEOWNERS file a host reads, and the file read as that host reads it. The caller supplies the
// reading (the job's base tree, or any commit): this module never touches the disk or git.
import { parseGithub } from './parse-github.js';
import { parseGitlab } from './parse-gitlab.js';
import type { Codeowners, Dialect, OwnersReport } from './types.js';

/**
 * Where each host looks, in its order; the first file that exists is used and the others are ignored.
 * GitHub: "in the `.github/`, root, or `docs/` directory ... GitHub will search for them in that order and
 * use the first one it finds". GitLab: "1. In the root directory 2. In the `docs` directory 3. In the
 * `.gitlab` directory".
 */
export const CODEOWNERS_LOCATIONS: Readonly<Record<Dialect, readonly string[]>> = {
  github: ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'],
  gitlab: ['CODEOWNERS', 'docs/CODEOWNERS', '.gitlab/CODEOWNERS'],
};

/** Reads one repository-relative file of the tree the owners are taken from; null or undefined when absent. */
export type ReadFile = (path: string) => Uint8Array | string | null | undefined | Promise<Uint8Array | string | null | undefined>;

/**
 * A CODEOWNERS file's content read as `dialect`'s host reads it. `file` is where it came from (shown in
 * warnings and reports). GitHub ignores a file of 3 MB or more: the result then has no rules and one
 * warning (line 0).
 */
export function parseCodeowners(content: Uint8Array | string, options: { dialect: Dialect; file: string }): Codeowners {
  return options.dialect === 'github' ? parseGithub(content, options.file) : parseGitlab(content, options.file);
}

/**
 * The CODEOWNERS file `dialect`'s host would use in a tree, read its way; undefined when none of its
 * locations holds one (`scion owners` exits 2 then; a split puts every file in the `unowned` piece).
 *
 * `read` reads the base commit's tree (a pull request's owners come from its base branch). Which dialect
 * is the caller's choice: the recipe's `split.codeowners`, else GitLab when the push remote is a GitLab
 * host and GitHub otherwise.
 *
 * @example
 *   const owners = await codeownersFor((p) => workspace.read(p), { dialect: 'github' });
 *   owners?.ownersOf(['src/app.ts']); // [{ path, owners: ['@acme/web'], rules: [{ line: 3, pattern: '/src/', section: null }] }]
 */
export async function codeownersFor(read: ReadFile, options: { dialect: Dialect }): Promise<Codeowners | undefined> {
  for (const file of CODEOWNERS_LOCATIONS[options.dialect]) {
    const content = await read(file);
    if (content !== null && content !== undefined) return parseCodeowners(content, { dialect: options.dialect, file });
  }
  return undefined;
}

/**
 * What `scion owners` reports for these paths: each path's owners and deciding rules, then every line not
 * read as written (lines the host skips, and lines it reads only in part, with which part and why), by line.
 */
export function ownersReport(codeowners: Codeowners, paths: readonly string[]): OwnersReport {
  const skipped = [...codeowners.skipped, ...codeowners.warnings].sort((a, b) => a.line - b.line);
  return { file: codeowners.file, paths: codeowners.ownersOf(paths), skipped };
}
