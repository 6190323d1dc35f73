// Skip and focus markers, and suppression comments, per language family. They are counted in the
// text before and after an edit: an edit that adds one (the count grows) is refused, one that keeps
// or removes them is not. Text, not syntax: a marker is a marker wherever it is written, and an edit
// that only moves an existing one keeps the count.
import type { Family } from './files.js';

export interface Marker {
  /** How the refusal names it. */
  readonly label: string;
  readonly pattern: RegExp;
}

const m = (label: string, pattern: RegExp): Marker => ({ label, pattern });

/** A test call not preceded by a member access or an identifier character (so `model.fit(` is not `fit(`). */
const CALL = '(?<![\\w$.])';

export const SKIP_MARKERS: Readonly<Record<Family, readonly Marker[]>> = {
  js: [
    m(
      '.skip / .only / .todo / .skipIf / .fails',
      new RegExp(`${CALL}(?:it|test|describe|suite|context|specify|bench)\\s*\\.\\s*(?:skip|only|todo|skipIf|fails)\\b`, 'g'),
    ),
    m('xit / xdescribe / xtest / fit / fdescribe', new RegExp(`${CALL}[xf](?:it|describe|test|context|specify)\\s*\\(`, 'g')),
    m('this.skip()', /\bthis\s*\.\s*skip\s*\(/g),
  ],
  python: [
    m('@pytest.mark.skip / skipif / xfail', /@pytest\.mark\.(?:skip|skipif|xfail)\b/g),
    m('@unittest.skip', /@(?:unittest\.)?skip(?:If|Unless)?\b/g),
    m('pytest.skip() / pytest.xfail()', /\bpytest\.(?:skip|xfail)\s*\(/g),
    m('skipTest() / SkipTest', /\.skipTest\s*\(|\bSkipTest\b/g),
  ],
  go: [m('t.Skip(', new RegExp(`${CALL}[tb]\\.Skip(?:f|Now)?\\s*\\(`, 'g'))],
  java: [m('@Disabled / @Ignore', /@(?:Disabled\w*|Ignore)\b/g)],
};

export const SUPPRESSION_MARKERS: Readonly<Record<Family, readonly Marker[]>> = {
  js: [
    m('@ts-ignore / @ts-nocheck / @ts-expect-error', /@ts-(?:ignore|nocheck|expect-error)\b/g),
    m('eslint-disable', /\beslint-disable\b/g),
    m('biome-ignore', /\bbiome-ignore\b/g),
  ],
  python: [
    m('# type: ignore', /#\s*type:\s*ignore\b/g),
    m('# noqa', /#\s*(?:ruff:\s*)?noqa\b/g),
    m('# pylint: disable', /#\s*pylint:\s*disable\b/g),
    m('# pyright: ignore', /#\s*pyright:\s*ignore\b/g),
    m('# mypy: ignore-errors', /#\s*mypy:\s*ignore-errors\b/g),
  ],
  go: [m('//nolint', /\/\/\s*nolint\b/g), m('//lint:ignore', /\/\/\s*lint:ignore\b/g)],
  java: [m('@SuppressWarnings / @Suppress', /@Suppress(?:Warnings)?\b/g), m('NOPMD / CHECKSTYLE:OFF', /\bNOPMD\b|CHECKSTYLE:OFF/g)],
};

export interface Added {
  readonly label: string;
  readonly before: number;
  readonly after: number;
}

/** The first marker whose count grows from `before` to `after`, or null when none does. */
export function addedMarker(markers: readonly Marker[], before: string, after: string): Added | null {
  for (const mk of markers) {
    const was = count(mk.pattern, before);
    const now = count(mk.pattern, after);
    if (now > was) return { label: mk.label, before: was, after: now };
  }
  return null;
}

function count(pattern: RegExp, text: string): number {
  return text.match(pattern)?.length ?? 0;
}
