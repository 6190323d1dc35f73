// Property of the wired split, through the CLI on real repositories: whatever CODEOWNERS says (valid
// lines or not, either reading) and whichever files change, every changed file is in exactly one piece,
// committed on that piece's branch only, and each piece's files have exactly the piece's owners.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { parseCodeowners } from '../../src/owners/index.js';
import { scion } from '../support/cli.js';
import { gitRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';

const segment = fc.constantFrom('a', 'b', 'web', 'docs', 'x.md', 'y.ts');
const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('/'));
const pattern = fc
  .tuple(
    fc.constantFrom('', '/', '!'),
    fc.array(fc.constantFrom('a', 'b', 'web', 'docs', '*', '**', '*.md', '[ab]'), { minLength: 1, maxLength: 3 }),
    fc.constantFrom('', '/'),
  )
  .map(([lead, segs, trail]) => `${lead}${segs.join('/')}${trail}`);
const owner = fc.constantFrom('@alice', '@Alice', '@bob', '@acme/web', 'dev@example.com', '@@maintainer');
const line = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(pattern, fc.array(owner, { maxLength: 3 })).map(([p, os]) => [p, ...os].join(' ')) },
  { weight: 1, arbitrary: fc.constantFrom('[Docs]', '^[Web][2] @bob', '# note', '') },
);
const ownerSet = (owners: readonly string[]) => [...new Set(owners.map((o) => o.toLowerCase()))].sort().join(' ');

describe('split: property', () => {
  it('every changed file is in exactly one piece, whatever the rules', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(path, { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        fc.array(line, { maxLength: 8 }),
        fc.constantFrom('github', 'gitlab'),
        fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
        async (candidates, changes, lines, dialect, maxFiles) => {
          // A path that is a folder of another cannot also be a file.
          const paths = candidates.filter((p) => !candidates.some((q) => q.startsWith(`${p}/`)));
          const files: Record<string, string> = { CODEOWNERS: `${lines.join('\n')}\n` };
          paths.forEach((p, i) => (files[p] = changes[i] ? 'v1\n' : 'same\n'));
          const changed = paths.filter((_, i) => changes[i]).sort();
          const repo = await gitRepo(files);
          try {
            const split = `{ by: owners, codeowners: ${dialect}${maxFiles === undefined ? '' : `, maxFiles: ${maxFiles}`} }`;
            const recipe = recipeFile(`name: prop\nsplit: ${split}\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n    expect: { min: 0 }\n`);
            const res = await scion(['run', recipe, '--repo', repo.dir, '--json'], { cwd: repo.dir });
            expect(res.code, res.stderr).toBe(0);
            const report = JSON.parse(res.stdout) as RunReport;
            const pieces = report.jobs.filter((j) => j.split !== undefined);
            const placed = pieces.flatMap((j) => j.files.map((f) => f.path)).sort();
            expect(placed).toEqual(changed);
            const co = parseCodeowners(files['CODEOWNERS']!, { dialect, file: 'CODEOWNERS' });
            for (const j of pieces) {
              expect(j.commits.flatMap((k) => k.files).sort()).toEqual(j.files.map((f) => f.path).sort());
              if (j.head !== null) expect(repo.git('diff', '--name-only', `HEAD..${j.branch}`).split('\n').sort()).toEqual(j.files.map((f) => f.path).sort());
              for (const f of j.files) expect(ownerSet(co.ownerOf(f.path).owners)).toBe(ownerSet(j.owners!));
              if (maxFiles !== undefined) expect(j.files.length).toBeLessThanOrEqual(maxFiles);
            }
            if (changed.length === 0) expect(report.jobs.map((j) => [j.name, j.status])).toEqual([['prop', 'empty']]);
          } finally {
            await repo.cleanup();
          }
        },
      ),
      { numRuns: 20 },
    );
  }, 120_000);
});
