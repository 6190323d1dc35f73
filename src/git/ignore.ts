// .gitignore matching (gitignore(5)): per-folder files whose rules apply below them, the last
// matching rule wins, `!` re-includes, a trailing `/` matches folders only, a pattern with a slash
// is anchored to its file's folder, `**` spans folders. Files inside an ignored folder stay ignored.

interface Rule {
  /** Folder of the .gitignore, '' or 'a/b/'. */
  readonly base: string;
  readonly regex: RegExp;
  readonly negate: boolean;
  readonly dirOnly: boolean;
  /** No slash in the pattern: it matches a name at any depth. */
  readonly nameOnly: boolean;
}

export class IgnoreRules {
  private constructor(private readonly rules: readonly Rule[]) {}

  static empty(): IgnoreRules {
    return new IgnoreRules([]);
  }

  /** These rules plus those of a .gitignore in folder `dir` ('' for the top). */
  with(text: string, dir: string): IgnoreRules {
    const base = dir === '' ? '' : `${dir}/`;
    const added = text.split('\n').flatMap((line) => parseLine(line, base));
    return added.length === 0 ? this : new IgnoreRules([...this.rules, ...added]);
  }

  /** Whether the path itself matches (callers handle ignored parent folders). */
  ignored(path: string, isDir: boolean): boolean {
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const r = this.rules[i] as Rule;
      if (r.dirOnly && !isDir) continue;
      if (!path.startsWith(r.base)) continue;
      const rel = path.slice(r.base.length);
      const subject = r.nameOnly ? rel.slice(rel.lastIndexOf('/') + 1) : rel;
      if (r.regex.test(subject)) return !r.negate;
    }
    return false;
  }
}

function parseLine(raw: string, base: string): Rule[] {
  let line = raw.replace(/\r$/, '');
  if (line === '' || line.startsWith('#')) return [];
  // Trailing spaces go unless escaped with a backslash.
  line = line.replace(/(?<!\\)\s+$/, '').replace(/\\ $/, ' ');
  let negate = false;
  if (line.startsWith('!')) {
    negate = true;
    line = line.slice(1);
  } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
    line = line.slice(1);
  }
  let dirOnly = false;
  if (line.endsWith('/')) {
    dirOnly = true;
    line = line.replace(/\/+$/, '');
  }
  if (line === '') return [];
  const nameOnly = !line.includes('/');
  if (line.startsWith('/')) line = line.slice(1);
  return [{ base, regex: new RegExp(`^${globToRegex(line)}$`), negate, dirOnly, nameOnly }];
}

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

/** Index of the `]` closing the class opened at `start`, or -1 (then `[` is literal). */
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
