// Behaviour 6: duplicate edits are recognised by their effect.
import { describe, expect, it } from 'vitest';
import { editsEquivalent } from '../../src/core/index.js';

const content = 'function a() {\n  return 1;\n}\n';

describe('editsEquivalent', () => {
  it('is true for literally equal edits (fast path), even ones that would not apply', () => {
    const e = [{ old_string: 'missing', new_string: 'x' }];
    expect(editsEquivalent(e, [{ old_string: 'missing', new_string: 'x', replace_all: false }], content)).toBe(true);
  });

  it('is true for different edits with the same result (slow path)', () => {
    const short = [{ old_string: 'return 1', new_string: 'return 2' }];
    const long = [{ old_string: '  return 1;\n}', new_string: '  return 2;\n}' }];
    expect(editsEquivalent(short, long, content)).toBe(true);
  });

  it('is false for edits with different results', () => {
    const a = [{ old_string: 'return 1', new_string: 'return 2' }];
    const b = [{ old_string: 'return 1', new_string: 'return 3' }];
    expect(editsEquivalent(a, b, content)).toBe(false);
  });

  it('is false when one side cannot be applied', () => {
    const a = [{ old_string: 'return 1', new_string: 'return 2' }];
    const b = [{ old_string: 'return 9', new_string: 'return 2' }];
    expect(editsEquivalent(a, b, content)).toBe(false);
  });
});
