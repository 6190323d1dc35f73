// Behaviour 10: NotebookEditTool: cells by id or cell-N; replace, insert, delete; nbformat's layout.
import { describe, expect, it } from 'vitest';
import { editNotebook, type NotebookEdit } from '../../src/core/index.js';
import { changed, expectFailure, file, text } from './helpers.js';

interface Cell {
  cell_type: string;
  id?: string;
  source: string | string[];
  outputs?: unknown[];
  execution_count?: number | null;
  metadata: object;
}

function notebook(cells: Cell[], minor = 5, indent: string | number = 1): string {
  return JSON.stringify({ cells, metadata: { kernelspec: { name: 'python3' } }, nbformat: 4, nbformat_minor: minor }, null, indent) + '\n';
}

const code = (id: string, src: string[]): Cell => ({
  cell_type: 'code',
  execution_count: 7,
  id,
  metadata: {},
  outputs: [{ output_type: 'stream', name: 'stdout', text: ['out\n'] }],
  source: src,
});
const md = (id: string, src: string[]): Cell => ({ cell_type: 'markdown', id, metadata: {}, source: src });
const base = notebook([md('intro', ['# Title']), code('calc', ['x = 1\n', 'print(x)'])]);

function edited(nbText: string, e: NotebookEdit): { cells: Cell[]; text: string } {
  const c = changed(editNotebook(file('nb/a.ipynb', nbText), e));
  const t = text(c.after);
  return { cells: (JSON.parse(t) as { cells: Cell[] }).cells, text: t };
}

describe('addressing cells', () => {
  it('finds a cell by its id, by cell-N and by a bare number', () => {
    for (const cell of ['calc', 'cell-1', '1']) {
      expect(edited(base, { cell, source: 'y = 2' }).cells[1]?.source).toEqual(['y = 2']);
    }
  });

  it("fails 'notebook' for an unknown cell", () => {
    const f = expectFailure(editNotebook(file('a.ipynb', base), { cell: 'nope', source: 'x' }), 'notebook', 5);
    expect(f.message).toContain('nope');
    expectFailure(editNotebook(file('a.ipynb', base), { cell: 'cell-5', source: 'x' }), 'notebook', 5);
    expectFailure(editNotebook(file('a.ipynb', base), { cell: 'cell-2', source: 'x', mode: 'delete' }), 'notebook', 5);
  });
});

describe('replace', () => {
  it('stores the source as nbformat lines, clears outputs and execution_count of a code cell', () => {
    const { cells } = edited(base, { cell: 'calc', source: 'a = 1\nb = 2\n' });
    expect(cells[1]).toEqual({ cell_type: 'code', execution_count: null, id: 'calc', metadata: {}, outputs: [], source: ['a = 1\n', 'b = 2\n'] });
  });

  it('can change the cell type', () => {
    const toMd = edited(base, { cell: 'calc', source: 'Now *text*', type: 'markdown' }).cells[1];
    expect(toMd).toEqual({ cell_type: 'markdown', id: 'calc', metadata: {}, source: ['Now *text*'] });
    const toCode = edited(base, { cell: 'intro', source: 'import os', type: 'code' }).cells[0];
    expect(toCode).toEqual({ cell_type: 'code', execution_count: null, id: 'intro', metadata: {}, outputs: [], source: ['import os'] });
  });

  it('at index == number of cells becomes an insert at the end', () => {
    const { cells } = edited(base, { cell: 'cell-2', source: 'tail()' });
    expect(cells).toHaveLength(3);
    expect(cells[2]).toMatchObject({ cell_type: 'code', source: ['tail()'], outputs: [], execution_count: null });
  });

  it("keeps a notebook's plain-string source style", () => {
    const nb = notebook([{ cell_type: 'markdown', id: 'm', metadata: {}, source: '# A\ntext' }]);
    expect(edited(nb, { cell: 'm', source: '# B\nmore' }).cells[0]?.source).toBe('# B\nmore');
  });
});

describe('insert', () => {
  it('goes after the given cell', () => {
    const { cells } = edited(base, { cell: 'intro', source: 'setup()', type: 'code', mode: 'insert' });
    expect(cells.map((c) => c.source)).toEqual([['# Title'], ['setup()'], ['x = 1\n', 'print(x)']]);
  });

  it('goes first without a cell', () => {
    const { cells } = edited(base, { source: '# Before', type: 'markdown', mode: 'insert' });
    expect(cells[0]).toMatchObject({ cell_type: 'markdown', source: ['# Before'], metadata: {} });
    expect(cells[0]).not.toHaveProperty('outputs');
  });

  it('gives the new cell a deterministic id on nbformat 4.5+: same input, same bytes', () => {
    const e: NotebookEdit = { cell: 'intro', source: 'setup()', type: 'code', mode: 'insert' };
    const one = edited(base, e);
    const two = edited(base, e);
    expect(one.text).toBe(two.text);
    const id = one.cells[1]?.id;
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(['intro', 'calc']).not.toContain(id);
    const other = edited(base, { ...e, source: 'other()' });
    expect(other.cells[1]?.id).not.toBe(id);
  });

  it('gives no id before nbformat 4.5', () => {
    const old = notebook([{ cell_type: 'markdown', metadata: {}, source: ['x'] }], 4);
    const { cells } = edited(old, { source: 'y', type: 'code', mode: 'insert' });
    expect(cells[0]).not.toHaveProperty('id');
  });

  it("fails 'notebook' without a cell type", () => {
    expectFailure(editNotebook(file('a.ipynb', base), { cell: 'intro', source: 'x', mode: 'insert' }), 'notebook', 5);
  });
});

describe('delete', () => {
  it('removes the cell', () => {
    const { cells } = edited(base, { cell: 'intro', source: '', mode: 'delete' });
    expect(cells.map((c) => c.id)).toEqual(['calc']);
    expect(edited(notebook([md('only', ['x'])]), { cell: 'only', source: '', mode: 'delete' }).cells).toEqual([]);
  });

  it('needs a cell', () => {
    expectFailure(editNotebook(file('a.ipynb', base), { source: '', mode: 'delete' }), 'notebook', 5);
  });
});

describe("the notebook's own layout", () => {
  it.each([1, 2, 4, '\t'])('keeps an indentation of %j', (indent) => {
    const nb = notebook([md('intro', ['# Title']), code('calc', ['x'])], 5, indent);
    const { text: out, cells } = edited(nb, { cell: 'calc', source: 'y' });
    const expected = JSON.stringify({ ...(JSON.parse(nb) as object), cells }, null, indent) + '\n';
    expect(out).toBe(expected);
  });

  it('keeps a missing trailing newline missing', () => {
    const nb = base.trimEnd();
    expect(edited(nb, { cell: 'calc', source: 'y' }).text.endsWith('}')).toBe(true);
  });

  it('copies untouched cells and metadata byte for byte, even number forms JSON.stringify would rewrite', () => {
    const nb = base.replace('"execution_count": 7', '"execution_count": 7.0').replace('"name": "python3"', '"name": "python3", "ratio": 1.50');
    const out = edited(nb, { cell: 'intro', source: '# New title' }).text;
    expect(out).toContain('"execution_count": 7.0');
    expect(out).toContain('"ratio": 1.50');
    expect(out).toContain('"# New title"');
  });

  it('keeps a minified notebook minified', () => {
    const nb = JSON.stringify(JSON.parse(base));
    const out = edited(nb, { cell: 'intro', source: 'x', type: 'markdown', mode: 'insert' }).text;
    expect(out).not.toContain('\n');
    expect((JSON.parse(out) as { cells: unknown[] }).cells).toHaveLength(3);
  });

  it('the patch shows only the edited cell', () => {
    const c = changed(editNotebook(file('a.ipynb', base), { cell: 'intro', source: '# Other' }));
    expect(c.patch).toMatchObject({ added: 1, removed: 1 });
  });
});

describe('refusals', () => {
  it("'notebook' for text that is not notebook JSON", () => {
    expectFailure(editNotebook(file('a.ipynb', '{ not json'), { source: 'x', mode: 'insert', type: 'code' }), 'notebook', 5);
    expectFailure(editNotebook(file('a.ipynb', '{"cells": 3}'), { source: 'x', mode: 'insert', type: 'code' }), 'notebook', 5);
  });

  it("'file-missing' for a missing notebook", () => {
    expectFailure(editNotebook(file('a.ipynb', null), { source: 'x', mode: 'insert', type: 'code' }), 'file-missing', 4);
  });

  it("'invalid-result' when a schema no longer holds", () => {
    const jsonSchema = { type: 'object', properties: { cells: { maxItems: 2 } } };
    const f = editNotebook(file('a.ipynb', base), { source: 'x', type: 'code', mode: 'insert' }, { jsonSchema });
    expectFailure(f, 'invalid-result', 10);
  });
});
