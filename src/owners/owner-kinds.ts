// Owners sorted by what a pull request can do with them: request review from users and teams, name
// e-mail owners in the body (a review cannot be requested from an address), and leave GitLab roles to
// GitLab's own approval rules.

export interface OwnerKinds {
  /** `@alice` → `alice`. On GitLab a name without `/` may also be a top-level group: the host decides. */
  readonly users: readonly string[];
  /** `@org/team` → `org/team` (GitHub's review request wants the part after `/`; GitLab's groups nest deeper). */
  readonly teams: readonly string[];
  readonly emails: readonly string[];
  /** GitLab's `@@maintainer` → `maintainer`, as written. */
  readonly roles: readonly string[];
}

export function ownerKinds(owners: readonly string[]): OwnerKinds {
  const users: string[] = [];
  const teams: string[] = [];
  const emails: string[] = [];
  const roles: string[] = [];
  for (const o of owners) {
    if (o.startsWith('@@')) roles.push(o.slice(2));
    else if (!o.startsWith('@')) emails.push(o);
    else if (o.includes('/')) teams.push(o.slice(1));
    else users.push(o.slice(1));
  }
  return { users, teams, emails, roles };
}
