// git's wildmatch for one pattern, as a regular expression (gitattributes' rules: '*' and '?' stop at
// '/', '**/' spans folders). .gitignore matching uses the 'ignore' package; attributes need a single
// pattern's match, which that package does not expose.

/** The regular-expression source (no anchors) of one wildmatch pattern. */
export function globToRegex(glob: string): string {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const afterSlash = i === 0 || glob[i - 1] === '/';
        if (afterSlash && glob[i + 2] === '/') {
          re += '(?:.*/)?';
          i += 2;
          continue;
        }
        if (afterSlash && i + 2 === glob.length) {
          re += '.*';
          i += 1;
          continue;
        }
        i += 1;
      }
      re += '[^/]*';
    } else if (c === '?') {
      re += '[^/]';
    } else if (c === '[') {
      const end = classEnd(glob, i);
      if (end < 0) {
        re += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, end);
      let neg = '';
      if (body.startsWith('!') || body.startsWith('^')) {
        neg = '^';
        body = body.slice(1);
      }
      re += `[${neg}${body.replace(/\\/g, '\\\\').replace(/\]/g, '\\]')}]`;
      i = end;
    } else if (c === '\\' && i + 1 < glob.length) {
      re += escape(glob[++i] as string);
    } else {
      re += escape(c);
    }
  }
  return re;
}

/** Index of the `]` that closes the class opened at `start`, or -1. */
function classEnd(glob: string, start: number): number {
  let i = start + 1;
  if (glob[i] === '!' || glob[i] === '^') i++;
  // A `]` right after the opening (or its negation) is a member, not the end.
  if (glob[i] === ']') i++;
  const end = glob.indexOf(']', i);
  return end;
}

function escape(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
