// The burndown as inline SVG: pull requests by state stacked over time, and the files the change still
// touches as a line beside them, so "merged" and "done" are never confused. Drawn from the history's
// snapshots (one per run of `track`); a year of daily snapshots is a few tens of kilobytes.
import type { TrackSnapshot, TrackState } from './types.js';

export const CHART_STATES: readonly TrackState[] = ['merged', 'open', 'draft', 'closed', 'declined', 'none'];
export const STATE_COLOURS: Readonly<Record<TrackState, string>> = {
  merged: '#8250df',
  open: '#1a7f37',
  draft: '#8c959f',
  closed: '#cf222e',
  declined: '#bc4c00',
  none: '#d0d7de',
};

const W = 720;
const H = 220;
const PAD = 36;

const x = (i: number, n: number) => (n <= 1 ? PAD : PAD + (i * (W - 2 * PAD)) / (n - 1));
const y = (v: number, max: number) => H - PAD - (max === 0 ? 0 : (v * (H - 2 * PAD)) / max);
const fmt = (v: number) => String(Math.round(v * 10) / 10);
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Stacked areas of pull requests by state; `id` names the chart for tests and links. */
export function stateChart(history: readonly TrackSnapshot[]): string {
  const n = history.length;
  const max = Math.max(1, ...history.map((s) => s.jobs));
  const below = new Array<number>(n).fill(0);
  const areas: string[] = [];
  for (const state of CHART_STATES) {
    const top = history.map((s, i) => below[i]! + (s[state] ?? 0));
    const upper = top.map((v, i) => `${fmt(x(i, n))},${fmt(y(v, max))}`);
    const lower = below.map((v, i) => `${fmt(x(i, n))},${fmt(y(v, max))}`).reverse();
    const points = [...upper, ...lower].join(' ');
    areas.push(`<polygon class="area" data-state="${state}" fill="${STATE_COLOURS[state]}" points="${points}"><title>${state}</title></polygon>`);
    top.forEach((v, i) => (below[i] = v));
  }
  return svg('burndown-states', 'Pull requests by state', areas.join(''), history, max);
}

/** The files the change still touches, over time. */
export function remainingChart(history: readonly TrackSnapshot[]): string {
  const n = history.length;
  const max = Math.max(1, ...history.map((s) => s.remaining));
  const points = history.map((s, i) => `${fmt(x(i, n))},${fmt(y(s.remaining, max))}`).join(' ');
  const line = `<polyline class="line" fill="none" stroke="#0969da" stroke-width="2" points="${points}"/>`;
  return svg('burndown-remaining', 'Files the change still touches', line, history, max);
}

function svg(id: string, title: string, body: string, history: readonly TrackSnapshot[], max: number): string {
  const first = history[0]?.at.slice(0, 10) ?? '';
  const last = history[history.length - 1]?.at.slice(0, 10) ?? '';
  const axis =
    `<line x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}" stroke="#57606a"/>` +
    `<line x1="${PAD}" y1="${PAD}" x2="${PAD}" y2="${H - PAD}" stroke="#57606a"/>` +
    `<text x="${PAD}" y="${H - 12}" font-size="11">${esc(first)}</text>` +
    `<text x="${W - PAD}" y="${H - 12}" font-size="11" text-anchor="end">${esc(last)}</text>` +
    `<text x="${PAD - 4}" y="${PAD + 4}" font-size="11" text-anchor="end">${max}</text>` +
    `<text x="${PAD - 4}" y="${H - PAD}" font-size="11" text-anchor="end">0</text>`;
  const open = `<svg id="${id}" role="img" aria-label="${esc(title)}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">`;
  return `<figure><figcaption>${esc(title)}</figcaption>${open}${body}${axis}</svg></figure>`;
}
