// git check-ref-format's rules for a branch name, so a bad name is a usage error before any job runs.

/** Why `name` cannot be a branch (refs/heads/<name>), or null when it can. */
export function branchNameProblem(name: string): string | null {
  if (name === '' || name === '@') return 'is empty or "@"';
  // refs/heads/HEAD is legal to git but makes every "HEAD" ambiguous; git branch refuses both.
  if (name === 'HEAD') return 'is "HEAD", which names the current commit';
  if (name.startsWith('-')) return 'starts with "-", which git reads as an option';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'has an empty path component';
  if (name.endsWith('.')) return 'ends with "."';
  if (name.includes('..')) return 'contains ".."';
  if (name.includes('@{')) return 'contains "@{"';
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return 'contains a space, control character or one of ~ ^ : ? * [ \\';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return `has a component starting with "." (${part})`;
    if (part.endsWith('.lock')) return `has a component ending with ".lock" (${part})`;
  }
  return null;
}
