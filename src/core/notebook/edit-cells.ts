// NotebookEditTool on a parsed notebook: replace, insert or delete one cell.
import { failure, fail, ok, type Result } from '../../errors.js';
import type { NotebookEdit } from '../types.js';
import { linesWithNewlines } from '../patch/lines.js';
import { deriveCellId, supportsCellIds } from './cell-id.js';

export type Cell = Record<string, unknown>;

export interface Notebook {
  readonly cells: Cell[];
  readonly nbformat?: unknown;
  readonly nbformat_minor?: unknown;
}

/** The cells after the edit: an untouched cell by its old index, or a new cell object. */
export type CellSlot = { readonly keep: number } | { readonly cell: Cell };

export function editCells(nb: Notebook, edit: NotebookEdit, path: string, notebookText: string): Result<CellSlot[]> {
  const cells = nb.cells;
  let mode = edit.mode ?? 'replace';
  let type = edit.type;
  let index: number;
  if (edit.cell === undefined || edit.cell === '') {
    if (mode !== 'insert') return fail(nbFailure(path, `a ${mode} needs a cell id or cell-N to say which cell.`));
    index = 0;
  } else {
    const at = findCell(cells, edit.cell);
    if (at === null || at > cells.length || (at === cells.length && mode !== 'replace')) {
      return fail(nbFailure(path, `cell "${edit.cell}" was not found (the notebook has ${cells.length} cells: cell-0 to cell-${cells.length - 1}).`));
    }
    index = at;
    if (mode === 'insert') index = at + 1;
    if (mode === 'replace' && at === cells.length) {
      // One past the end is the model's usual off-by-one: read it as "append".
      mode = 'insert';
      type ??= 'code';
    }
  }

  const slots: CellSlot[] = cells.map((_, k) => ({ keep: k }));
  if (mode === 'delete') {
    slots.splice(index, 1);
    return ok(slots);
  }
  if (mode === 'insert') {
    if (type === undefined) return fail(nbFailure(path, 'inserting a cell needs its type: set type (cell_type) to code or markdown.'));
    const taken = new Set(cells.map((c) => c.id).filter((id): id is string => typeof id === 'string'));
    const id = supportsCellIds(nb) ? deriveCellId(notebookText, index, edit.source, taken) : undefined;
    slots.splice(index, 0, { cell: newCell(type, id, toSource(edit.source, majorityStyle(cells))) });
    return ok(slots);
  }
  slots[index] = { cell: replaced(cells[index] as Cell, edit.source, type) };
  return ok(slots);
}

function findCell(cells: readonly Cell[], ref: string): number | null {
  const byId = cells.findIndex((c) => c.id === ref);
  if (byId !== -1) return byId;
  const m = /^(?:cell-)?(\d+)$/.exec(ref);
  return m ? Number(m[1]) : null;
}

// Keys in nbformat's own (sorted) order, so a new cell reads like one Jupyter wrote.
function newCell(type: 'code' | 'markdown', id: string | undefined, source: string | string[]): Cell {
  const cell: Cell = { cell_type: type };
  if (type === 'code') cell.execution_count = null;
  if (id !== undefined) cell.id = id;
  cell.metadata = {};
  if (type === 'code') cell.outputs = [];
  cell.source = source;
  return cell;
}

function replaced(old: Cell, source: string, type: 'code' | 'markdown' | undefined): Cell {
  const cell: Cell = { ...old, source: toSource(source, Array.isArray(old.source) ? 'array' : 'string') };
  if (type !== undefined) cell.cell_type = type;
  if (cell.cell_type === 'code') {
    // The source changed: its old outputs no longer describe it.
    cell.execution_count = null;
    cell.outputs = [];
  } else {
    delete cell.execution_count;
    delete cell.outputs;
  }
  const keys = Object.keys(old);
  const sorted = keys.every((k, i) => i === 0 || (keys[i - 1] as string) < k);
  return sorted
    ? Object.fromEntries(
        Object.keys(cell)
          .sort()
          .map((k) => [k, cell[k]]),
      )
    : cell;
}

/** nbformat stores source as lines that keep their '\n'; a file that uses plain strings keeps them. */
function toSource(source: string, style: 'array' | 'string'): string | string[] {
  return style === 'string' ? source : linesWithNewlines(source);
}

function majorityStyle(cells: readonly Cell[]): 'array' | 'string' {
  const strings = cells.filter((c) => typeof c.source === 'string').length;
  return strings > cells.length - strings ? 'string' : 'array';
}

function nbFailure(path: string, what: string): ReturnType<typeof failure> {
  return failure('notebook', `Cannot edit notebook ${path}: ${what}`, { path });
}
