// The `replace` transform's regular expressions are Rust `regex` syntax, and its `by` text expands
// `$1`, `$name` and `${name}` the Rust way. ast-grep computes transforms itself; scion recomputes one
// only when the text it reads was rewritten by a nested match (rewrite.ts), so this translation covers
// the syntax both engines share and refuses the rest instead of guessing.

/** A JavaScript RegExp for a Rust pattern, or a sentence saying which part has no JavaScript equivalent. */
export function rustRegex(pattern: string): RegExp | string {
  let flags = 'gu';
  let body = pattern;
  const lead = /^\(\?([imsU]+)\)/.exec(body);
  if (lead) {
    const given = lead[1] as string;
    if (given.includes('U')) return 'the swap-greed flag (?U) has no JavaScript equivalent';
    for (const f of given) if (!flags.includes(f)) flags += f;
    body = body.slice(lead[0].length);
  }
  if (/\(\?[a-zA-Z-]+[:)]/.test(body)) return 'inline flags other than a leading (?i), (?m) or (?s) have no JavaScript equivalent';
  if (/\[\[:\^?[a-z]+:\]\]|\[:\^?[a-z]+:\]/.test(body)) return 'POSIX classes like [[:alpha:]] have no JavaScript equivalent';
  let out = '';
  let inClass = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === '\\') {
      const n = body[i + 1];
      if (n === undefined) return 'the pattern ends with a lone backslash';
      i++;
      if (n === 'd') out += '\\p{Nd}';
      else if (n === 'D') out += '\\P{Nd}';
      else if (n === 'w') out += inClass ? WORD : `[${WORD}]`;
      else if (n === 'W') {
        if (inClass) return '\\W inside a character class has no JavaScript equivalent';
        out += `[^${WORD}]`;
      } else if (n === 'A') out += '^';
      else if (n === 'z') out += '$';
      else if (n === 'x' && body[i + 1] === '{') {
        const close = body.indexOf('}', i);
        if (close === -1) return 'an unclosed \\x{…} escape';
        out += `\\u{${body.slice(i + 2, close)}}`;
        i = close;
      } else out += `\\${n}`;
      continue;
    }
    if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass && out[out.length - 1] !== '[' && !out.endsWith('[^')) inClass = false;
    if (c === '(' && body.startsWith('(?P<', i)) {
      out += '(?<';
      i += 3;
      continue;
    }
    out += c;
  }
  try {
    return new RegExp(out, flags);
  } catch (e) {
    return `JavaScript cannot run it (${e instanceof Error ? e.message : String(e)})`;
  }
}

// Rust's \w is Unicode-aware: letters, marks, decimal digits, connector punctuation, joiners.
const WORD = '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}';

/** Every match of `re` in `text` replaced by `by`, expanded as Rust's Regex::replace_all does. */
export function rustReplaceAll(text: string, re: RegExp, by: string): string {
  const out: string[] = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    out.push(text.slice(last, m.index), expand(by, m));
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out.join('');
}

const isRefChar = (c: string | undefined): boolean => c !== undefined && /[_0-9A-Za-z]/.test(c);

function expand(by: string, m: RegExpMatchArray): string {
  let out = '';
  for (let i = 0; i < by.length; i++) {
    const c = by[i] as string;
    if (c !== '$') {
      out += c;
      continue;
    }
    if (by[i + 1] === '$') {
      out += '$';
      i++;
      continue;
    }
    let name: string;
    let end: number;
    if (by[i + 1] === '{') {
      const close = by.indexOf('}', i + 2);
      if (close === -1) {
        out += c;
        continue;
      }
      name = by.slice(i + 2, close);
      end = close;
    } else {
      end = i;
      while (isRefChar(by[end + 1])) end++;
      name = by.slice(i + 1, end + 1);
    }
    if (name === '') {
      out += c;
      continue;
    }
    out += /^\d+$/.test(name) ? (m[Number(name)] ?? '') : (m.groups?.[name] ?? '');
    i = end;
  }
  return out;
}
