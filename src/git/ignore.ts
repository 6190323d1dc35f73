// .gitignore matching (gitignore(5)) through the `ignore` package, which implements git's pattern
// rules (`!` re-includes, trailing `/` for folders, anchoring by an inner slash, `**`, classes,
// escapes, trailing spaces; checked against `git check-ignore` in test/git/ignore.test.ts). What
// it does not do is git's layering of one .gitignore per folder: a folder's file applies to paths
// below it, and a deeper file's last matching rule wins over a shallower one's. That is this class.
import ignore, { type Ignore } from 'ignore';

interface Layer {
  /** Folder of the .gitignore, '' or 'a/b/'. */
  readonly base: string;
  readonly rules: Ignore;
}

export class IgnoreRules {
  private constructor(private readonly layers: readonly Layer[]) {}

  static empty(): IgnoreRules {
    return new IgnoreRules([]);
  }

  /** These rules plus those of a .gitignore in folder `dir` ('' for the top), which take precedence. */
  with(text: string, dir: string): IgnoreRules {
    if (!/^[ \t]*[^#\s]/m.test(text)) return this;
    const base = dir === '' ? '' : `${dir}/`;
    return new IgnoreRules([...this.layers, { base, rules: ignore().add(text) }]);
  }

  /** Whether the path matches; the deepest .gitignore with a matching rule decides. */
  ignored(path: string, isDir: boolean): boolean {
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const layer = this.layers[i] as Layer;
      if (!path.startsWith(layer.base)) continue;
      const rel = path.slice(layer.base.length);
      if (rel === '') continue;
      const r = layer.rules.test(isDir ? `${rel}/` : rel);
      if (r.ignored) return true;
      if (r.unignored) return false;
    }
    return false;
  }
}
