// scion's own transforms (used when nested rewrites changed a transform's source text) against
// ast-grep's (napi's getTransformed) on generated text: the two must agree.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadNapi } from '../../src/structural/napi.js';
import { apply, parseTransforms } from '../../src/structural/transform.js';

const napi = await loadNapi();

/** ast-grep's value of one transformation over the text of a string literal. */
function native(raw: unknown, text: string): string | null {
  const root = napi.parse(napi.Lang.JavaScript, `f('${text}');`).root();
  const m = root.find({ rule: { pattern: 'f($S)' }, transform: { T: raw } } as never);
  if (!m) throw new Error(`no match in f('${text}')`);
  return m.getTransformed('T');
}

function ours(raw: unknown, text: string): string {
  const t = parseTransforms({ T: raw }, ['transform']);
  if (!t.ok) throw new Error(JSON.stringify(t.error));
  const [, tr] = t.value.order[0] as [string, Parameters<typeof apply>[0]];
  return apply(tr, `'${text}'`);
}

const word = fc.string({ unit: fc.constantFrom(...'abcXYZ019_-./ éÄßǅ中😀'.split(/(?:)/u)), maxLength: 24 });

const transforms: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ substring: fc.record({ source: fc.constant('$S'), startChar: fc.integer({ min: -30, max: 30 }), endChar: fc.integer({ min: -30, max: 30 }) }) }),
  fc.record({ substring: fc.record({ source: fc.constant('$S'), startChar: fc.integer({ min: -5, max: 5 }) }) }),
  fc.record({
    replace: fc.record({
      source: fc.constant('$S'),
      replace: fc.constantFrom('[a-z]+', '(\\w)(\\w)', '(?P<up>[A-Z])', '\\d', '(?i)x', '\\s+', '^.', '.$', 'é|中'),
      by: fc.constantFrom('', '_', '$2$1', '${up}_', '[$0]', '$$', '${1}x', '$nope'),
    }),
  }),
  fc.record({
    convert: fc.record(
      {
        source: fc.constant('$S'),
        toCase: fc.constantFrom('lowerCase', 'upperCase', 'capitalize', 'camelCase', 'snakeCase', 'kebabCase', 'pascalCase'),
        separatedBy: fc.subarray(['caseChange', 'dash', 'dot', 'slash', 'space', 'underscore']),
      },
      { requiredKeys: ['source', 'toCase'] },
    ),
  }),
);

describe('transforms computed by scion agree with ast-grep', () => {
  it('substring, replace and convert over generated text', () => {
    fc.assert(
      fc.property(word, transforms, (text, raw) => {
        expect(ours(raw, text)).toBe(native(raw, text));
      }),
      { numRuns: 1500 },
    );
  });

  it('the string form reads as the object form', () => {
    const text = 'user_accountName-v2';
    const forms = [
      'convert($S, toCase=kebabCase, separatedBy=[underscore, caseChange])',
      "replace($S, replace='(\\w+)_', by='$1.')",
      'substring($S, startChar=2, endChar=-3)',
    ];
    for (const form of forms) {
      expect(ours(form, text)).toBe(native(form, text));
    }
  });

  it('rejects what it cannot read, with the field at fault', () => {
    const raw = { A: { substring: { source: 'S' } }, b: { convert: { source: '$S', toCase: 'shout' } }, C: { rewrite: { source: '$S' } } };
    const bad = parseTransforms(raw, ['transform']);
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    const paths = bad.error.map((p) => p.path.join('.'));
    expect(paths).toEqual(['transform.A.substring.source', 'transform.b', 'transform.b.convert.toCase', 'transform.C.rewrite']);
    const cycle = parseTransforms({ A: { substring: { source: '$B' } }, B: { substring: { source: '$A' } } }, ['transform']);
    expect(!cycle.ok && cycle.error[0]?.message).toContain('depends on itself');
  });
});
