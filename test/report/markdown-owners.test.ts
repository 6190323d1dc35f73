// What a piece's pull request says about its owners (pure: a job report in, Markdown out): who is asked
// for review, who cannot be (an e-mail, a GitLab role), the lines that decided, a folder cut, no CODEOWNERS.
import { describe, expect, it } from 'vitest';
import type { JobReport, RunReport, SplitReport } from '../../src/model/types.js';
import { ZERO_USAGE } from '../../src/model/usage.js';
import { jobPullRequestBody } from '../../src/report/markdown.js';

const piece = (owners: string[], split: Partial<SplitReport>): JobReport => ({
  recipe: 'bump',
  name: `bump/${split.piece ?? 'p'}`,
  base: 'a'.repeat(40),
  branch: `scion/bump/${split.piece ?? 'p'}`,
  status: 'changed',
  head: 'b'.repeat(40),
  worktree: null,
  commits: [],
  files: [{ path: 'lib/x/1.ts', group: 'rest', added: 1, removed: 1 }],
  errors: [],
  skipped: [],
  usage: ZERO_USAGE,
  durationMs: 1,
  owners,
  split: { job: 'bump', piece: 'p', codeowners: 'gitlab', file: 'CODEOWNERS', directory: null, rules: [], ...split },
});
const body = (j: JobReport) => jobPullRequestBody({ version: 1, repo: '/r', dryRun: false, jobs: [j] } satisfies RunReport, j);

describe('the owners section of a piece', () => {
  it('names who is asked, the e-mail and role owners who cannot be, and each deciding line with its section', () => {
    const text = body(
      piece(['@@maintainer', '@alice', 'dev@example.com'], {
        piece: 'alice+dev+maintainer',
        rules: [
          { line: 1, pattern: '*', section: null, files: 1 },
          { line: 4, pattern: '/lib/', section: 'Lib', files: 1 },
        ],
      }),
    );
    expect(text).toContain('### Owners');
    expect(text).toContain('owned by `@@maintainer`, `@alice`, `dev@example.com`');
    expect(text).toContain('- `CODEOWNERS:1` `*`: 1 file\n- `CODEOWNERS:4` `/lib/` in section `[Lib]`: 1 file');
    expect(text).toContain('Review is requested from `@alice`.');
    expect(text).toContain('Owners by e-mail (a review cannot be requested from an address): dev@example.com.');
    expect(text).toContain("Owners by role (left to GitLab's own approval rules): `@@maintainer`.");
  });

  it('a folder cut, a piece no line owns, and a base without CODEOWNERS each say so', () => {
    expect(body(piece(['@ann'], { directory: 'lib/x', rules: [{ line: 2, pattern: '/lib/', section: null, files: 1 }] }))).toContain(
      'the files under `lib/x/`',
    );
    expect(body(piece([], { piece: 'unowned' }))).toContain('No line of `CODEOWNERS` (read as GitLab reads it, at the base commit) owns these files.');
    expect(body(piece([], { piece: 'unowned', file: null, codeowners: 'github' }))).toContain(
      'The base commit has no CODEOWNERS file where GitHub looks for one, so every changed file is in the piece `unowned`.',
    );
  });

  it('a job that was not split has no owners section', () => {
    const { owners: _o, split: _s, ...plain } = piece(['@ann'], {});
    expect(body(plain)).not.toContain('### Owners');
  });
});
