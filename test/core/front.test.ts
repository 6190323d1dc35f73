// The engine's one front (core/engine/prepare.ts): every entry point, given the same bad input,
// refuses it with the same kind; where an entry point differs (a write may create a file or overwrite
// a notebook, an edit may follow a partial read) the table says so.
import { describe, expect, it } from 'vitest';
import { applyEdits, editNotebook, replaceRegex, replaceRegexBounded, writeContent } from '../../src/core/index.js';
import type { EngineOptions, EngineResult, FileInput } from '../../src/core/index.js';
import type { ErrorKind } from '../../src/errors.js';
import { fakeSecrets, file } from './helpers.js';

const NOTEBOOK = JSON.stringify({
  cells: [{ cell_type: 'code', source: 'print(1)\n', metadata: {}, outputs: [], execution_count: null }],
  nbformat: 4,
  nbformat_minor: 5,
});

type Entry = (f: FileInput, added: string, opts: EngineOptions) => EngineResult | Promise<EngineResult>;

const entries: Readonly<Record<string, Entry>> = {
  applyEdits: (f, added, opts) => applyEdits(f, [{ old_string: 'print(1)', new_string: added }], opts),
  writeContent: (f, added, opts) => writeContent(f, added, opts),
  editNotebook: (f, added, opts) => editNotebook(f, { cell: 'cell-0', source: added, mode: 'replace' }, opts),
  replaceRegex: (f, added, opts) => replaceRegex(f, 'print\\(1\\)', added, false, opts),
  replaceRegexBounded: (f, added, opts) =>
    replaceRegexBounded(f, 'print\\(1\\)', added, false, opts, async (text) => ({
      ok: true,
      value: [...text.matchAll(/print\(1\)/g)].map((m) => ({ index: m.index, groups: [...m] })),
    })),
};

type Expected = ErrorKind | 'ok';

interface Case {
  readonly name: string;
  readonly path?: string;
  readonly bytes?: Uint8Array | string | null;
  readonly added?: string;
  readonly opts?: EngineOptions;
  /** The kind every entry point gives, and the entry points that differ. */
  readonly kind: Expected;
  readonly except?: Readonly<Record<string, Expected>>;
}

const secret = `key = "${fakeSecrets.github}"`;
const cases: readonly Case[] = [
  { name: 'valid input', kind: 'ok' },
  { name: 'a credential in the new text', added: secret, kind: 'secret' },
  { name: 'a credential, before a path outside', path: '../a.txt', added: secret, kind: 'secret' },
  { name: 'a denied path', opts: { isDenied: (p) => p === 'a.txt' }, kind: 'denied' },
  { name: 'a UNC path', path: '//host/share/a.txt', kind: 'unc-path' },
  { name: 'a path outside the repository', path: '../a.txt', kind: 'outside' },
  { name: "a path in git's own folder", path: 'sub/.git/config', kind: 'outside' },
  { name: 'a lone surrogate in the new text', added: 'x\uD800', kind: 'encoding' },
  { name: 'a file above maxBytes', opts: { maxBytes: 10 }, kind: 'too-large' },
  { name: 'a binary file', bytes: new Uint8Array([0x70, 0x00, 0x01, 0x02]), kind: 'binary' },
  { name: 'bytes that are not UTF-8', bytes: new Uint8Array([0xc3, 0x28, 0x70, 0x72]), kind: 'encoding' },
  { name: 'a missing file', bytes: null, kind: 'file-missing', except: { writeContent: 'ok' } },
  // A whole notebook is a valid write; edits and replaces must go through its cells.
  {
    name: 'a notebook',
    path: 'nb/a.ipynb',
    added: NOTEBOOK.replace('print(1)', 'print(2)'),
    kind: 'notebook',
    except: { writeContent: 'ok', editNotebook: 'ok' },
  },
  { name: 'a file never read', opts: { read: null }, kind: 'not-read' },
  { name: 'a file changed since it was read', opts: { read: { text: 'other', partial: false } }, kind: 'stale' },
  { name: 'a file read in part', opts: { read: { text: NOTEBOOK, partial: true } }, kind: 'ok', except: { writeContent: 'not-read' } },
];

describe('every engine entry point goes through the same front', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const f = file(c.path ?? 'a.txt', c.bytes === undefined ? NOTEBOOK : c.bytes);
      const got: Record<string, Expected> = {};
      const want: Record<string, Expected> = {};
      for (const [name, run] of Object.entries(entries)) {
        const r = await run(f, c.added ?? 'print(2)', c.opts ?? {});
        got[name] = r.ok ? 'ok' : r.error.kind;
        want[name] = c.except?.[name] ?? c.kind;
      }
      expect(got).toEqual(want);
    });
  }
});
