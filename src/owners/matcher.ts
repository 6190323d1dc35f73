// Patterns run through scion's one glob matcher (recipe/glob-machine.ts): a pattern's expression is run by
// V8 only where its shape bounds backtracking, by a state machine otherwise, so a hostile line such as
// `a/**/a/**/a/**/a/**/b` over a deep path costs O(path × pattern), not exponential time.
import { compileExpression } from '../recipe/glob-machine.js';

export type PathMatcher = (path: string) => boolean;

export const NEVER: PathMatcher = () => false;

/**
 * One character of a path as `?` means it: a whole code point (a surrogate pair counts as one), never `/`.
 * The glob machine reads code units, so the pair is spelled out.
 */
export const ONE_CHAR = '(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|[^/])';

/**
 * A matcher for an expression source (as the pattern compilers build it; `pattern` names it in errors),
 * compiled on first use: with the rule index most rules of a large file are never tried, and compiling
 * all of them was most of the time spent reading the file.
 */
export function lazyMatcher(source: string, pattern: string): PathMatcher {
  let test: ((path: string) => boolean) | undefined;
  return (path) => {
    if (test === undefined) {
      const machine = compileExpression(source, pattern);
      test = (p) => machine.test(p);
    }
    return test(path);
  };
}
