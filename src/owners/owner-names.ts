// Who can be an owner, per host. GitHub: "one or more GitHub usernames or team names using the standard
// `@username` or `@org/team-name` format", or "an email address"; a line naming anything else is invalid
// and skipped. GitLab: users and groups (`@name`, `@group/subgroup`), e-mails, and roles (`@@developer`,
// `@@maintainer`, `@@owner`, plurals accepted); "Malformed owners are invalid and ignored", the rest of the
// line still counts.

const GITHUB_USER = /^@[A-Za-z0-9][A-Za-z0-9_-]*$/;
const GITHUB_TEAM = /^@[A-Za-z0-9][A-Za-z0-9_-]*\/[A-Za-z0-9_.-]+$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** Whether GitHub accepts this word as an owner. */
export function isGithubOwner(word: string): boolean {
  return GITHUB_USER.test(word) || GITHUB_TEAM.test(word) || EMAIL.test(word);
}

// GitLab's reference extractor, word by word so owners keep the order they are written in.
const GITLAB_ROLE = /^@@(?:developer|maintainer|owner)s?$/i;
const GITLAB_EMAIL = /[^@\s]{1,100}@[^@\s]{1,255}(?<!\W)/gu;
// A namespace path: segments of letters, digits, `_`, `.`, `-`, not ending with `.` (nor `.git`/`.atom`).
const SEGMENT = '(?:[A-Za-z0-9_.][A-Za-z0-9_.-]*[A-Za-z0-9_-]|[A-Za-z0-9_])(?<!\\.git|\\.atom)';
const GITLAB_NAME = new RegExp(`(?<![\\w@])@(${SEGMENT}(?:/${SEGMENT})*)`, 'gu');

/** The owners GitLab finds in one word (usually one, none when the word is malformed). */
export function gitlabOwnersIn(word: string): string[] {
  if (GITLAB_ROLE.test(word)) return [word];
  const found: { at: number; owner: string }[] = [];
  for (const m of word.matchAll(GITLAB_EMAIL)) found.push({ at: m.index, owner: m[0] });
  for (const m of word.matchAll(GITLAB_NAME)) found.push({ at: m.index, owner: `@${m[1] as string}` });
  return found.sort((a, b) => a.at - b.at).map((f) => f.owner);
}

/** The key two spellings of one owner share: both hosts compare user and group names case-insensitively. */
export const ownerKey = (owner: string): string => owner.toLowerCase();

/** Owners without repeats (case-insensitive), first spelling kept, order kept. */
export function uniqueOwners(owners: Iterable<string>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const o of owners) {
    const k = ownerKey(o);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(o);
  }
  return out;
}
