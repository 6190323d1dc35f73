// Message and branch templates: `{{name}}` placeholders, filled from a small fixed vocabulary.

/** Placeholders a commit or group message may use. */
export const MESSAGE_PLACEHOLDERS = ['recipe', 'job', 'group', 'description', 'count'] as const;
/** Placeholders a branch may use: a branch is named before any group or count exists. */
export const BRANCH_PLACEHOLDERS = ['recipe', 'job'] as const;

// Whitespace inside the braces is tolerated (`{{ recipe }}`), as in most template languages.
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * Fills `{{recipe}}`, `{{job}}`, `{{group}}`, `{{description}}`, `{{count}}` from `vars`.
 * A name that `vars` does not hold is left as written, so a template can be filled in stages.
 */
export function renderTemplate(tpl: string, vars: Record<string, string | number>): string {
  // A replacer function, not a replacement string: values holding `$&` or `$1` must come out verbatim.
  return tpl.replace(PLACEHOLDER, (whole, name: string) => (Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : whole));
}

/** The placeholder names a template uses that are not in `allowed`, in order of appearance. */
export function unknownPlaceholders(tpl: string, allowed: readonly string[]): string[] {
  const unknown: string[] = [];
  for (const m of tpl.matchAll(PLACEHOLDER)) {
    const name = m[1] ?? '';
    if (!allowed.includes(name) && !unknown.includes(name)) unknown.push(name);
  }
  return unknown;
}
