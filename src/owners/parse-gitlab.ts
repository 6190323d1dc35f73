// A CODEOWNERS file as GitLab reads it. Sections "are analyzed separately, and always enforced": a path's
// owners are the union of what each section says. Within a section "Only one Code Owner pattern per section
// is matched to a file path", the last one; a `!pattern` excludes matching files from its section ("After a
// pattern is excluded, it cannot be included again in the same section"). Rules before the first header
// form an unnamed section. Headers: `[Name]`, `^[Name]` (optional), `[Name][N]` (N approvals), default
// owners after the header; "Section names are case-insensitive, and sections with duplicate names are
// combined". GitLab keeps a line with a problem and ignores only its faulty part, so nothing here is
// skipped: problems are warnings.
import { compileGitlabPattern, gitlabKey, normalizeGitlabPattern } from './gitlab-pattern.js';
import type { PathMatcher } from './github-pattern.js';
import { linesOf, splitPattern, words } from './lines.js';
import { gitlabOwnersIn, uniqueOwners } from './owner-names.js';
import { RuleIndex, type IndexKey } from './rule-index.js';
import type { Codeowners, PathOwners, Rule, RuleRef, Section, Warning } from './types.js';

// GitLab's section header: not anchored at the end, so anything after the header is ignored.
const HEADER = /^(\^)?\[(.*?)\](?:\[(\d*?)\])?(\s+[@\w.\-/\s+]*)?/u;
const UNCLOSED_HEADER = /^\^?\[[^\]]+?$/u;

interface Entry {
  readonly rule: Rule;
  readonly matches: PathMatcher;
  readonly key: IndexKey;
}

interface SectionState {
  readonly name: string | null;
  readonly lines: number[];
  optional: boolean;
  approvals: number;
  /** Keyed by the normalised pattern: a repeated pattern takes the new line's rule at the old line's place. */
  readonly entries: Map<string, Entry>;
}

/** The header the following rules sit under: its section, and its own default owners. */
interface Current {
  readonly section: SectionState;
  readonly defaultOwners: string;
}

export function parseGitlab(content: Uint8Array | string, file: string): Codeowners {
  const unnamed: SectionState = { name: null, lines: [], optional: false, approvals: 0, entries: new Map() };
  const sections: SectionState[] = [unnamed];
  const warnings: Warning[] = [];
  let current: Current = { section: unnamed, defaultOwners: '' };

  for (const line of linesOf(content)) {
    // Ruby's `strip`: all whitespace around the line goes, escaped or not.
    const text = line.raw.trim();
    if (text === '' || text.startsWith('#')) continue;
    // One warning per line, its problems in the order met.
    const warn = (reason: string) => {
      const last = warnings[warnings.length - 1];
      if (last?.line === line.number) warnings[warnings.length - 1] = { ...last, reason: `${last.reason}; ${reason}` };
      else warnings.push({ line: line.number, text: line.raw, reason });
    };

    const header = HEADER.exec(text);
    if (header !== null) {
      current = openSection(sections, header, line.number, warn);
      continue;
    }
    if (UNCLOSED_HEADER.test(text)) warn('this looks like a section header without its closing `]`: GitLab reads it as a pattern and its owners');

    const { pattern, rest } = splitPattern(text);
    const exclusion = pattern.startsWith('!');
    const bare = exclusion ? pattern.slice(1) : pattern;
    let owners: string[] = [];
    if (exclusion) {
      if (rest !== '') warn('an exclusion takes no owners: GitLab ignores the rest of the line');
    } else {
      const malformed = words(rest).filter((w) => gitlabOwnersIn(w).length === 0);
      if (malformed.length > 0) warn(`GitLab ignores ${malformed.map((w) => `'${w}'`).join(', ')}: not a user, group, role or e-mail address`);
      owners = uniqueOwners(words(rest === '' ? current.defaultOwners : rest).flatMap(gitlabOwnersIn));
      if (owners.length === 0) warn('this rule has no owners: GitLab treats it as invalid and auto-approves its files in its section');
    }
    const rule: Rule = { line: line.number, pattern, owners, section: current.section.name, exclusion };
    // "If an entry is duplicated in a section, the last entry is used": a Map keeps the first one's place.
    current.section.entries.set(normalizeGitlabPattern(bare), { rule, matches: compileGitlabPattern(bare), key: gitlabKey(bare) });
  }
  return gitlabCodeowners(file, sections, warnings);
}

function openSection(sections: SectionState[], m: RegExpExecArray, line: number, warn: (reason: string) => void): Current {
  const name = m[2] as string;
  const optional = m[1] !== undefined;
  const approvals = Number.parseInt(m[3] ?? '0', 10) || 0;
  const defaultOwners = m[4] ?? '';
  if (name.trim() === '') warn('a section header needs a name');
  if (optional && approvals > 0) warn('an optional section (`^`) cannot require a number of approvals');
  if (defaultOwners.trim() !== '' && words(defaultOwners).flatMap(gitlabOwnersIn).length === 0) {
    warn('the default owners after this header are not users, groups, roles or e-mail addresses');
  }
  const after = m.input.slice(m[0].length).trim();
  if (after !== '') warn(`GitLab ignores '${after}' after the section header`);

  let section = sections.find((s) => s.name !== null && s.name.toLowerCase() === name.toLowerCase());
  if (section === undefined) {
    section = { name, lines: [], optional: true, approvals: 0, entries: new Map() };
    sections.push(section);
  }
  section.lines.push(line);
  // "If a section is duplicated in the file, and one of them is marked as optional and the other isn't, the section is required."
  section.optional &&= optional;
  section.approvals = Math.max(section.approvals, approvals);
  return { section, defaultOwners };
}

function gitlabCodeowners(file: string, states: readonly SectionState[], warnings: Warning[]): Codeowners {
  const used = states.filter((s) => s.name !== null || s.entries.size > 0);
  const ordered = used.map((s) => [...s.entries.values()]);
  const indexes = ordered.map((entries) => new RuleIndex(entries.map((e) => e.key)));
  const ownerOf = (path: string): PathOwners => {
    const rules: RuleRef[] = [];
    const owners: string[] = [];
    for (const [s, entries] of ordered.entries()) {
      let decided: Entry | undefined;
      let excluded: Entry | undefined;
      for (const i of (indexes[s] as RuleIndex).candidates(path)) {
        const e = entries[i] as Entry;
        if (!e.matches(path)) continue;
        if (e.rule.exclusion) {
          excluded = e;
          break;
        }
        decided ??= e;
      }
      const by = excluded ?? decided;
      if (by === undefined) continue;
      rules.push({ line: by.rule.line, pattern: by.rule.pattern, section: by.rule.section });
      if (excluded === undefined) owners.push(...by.rule.owners);
    }
    return { path, owners: uniqueOwners(owners), rules };
  };
  const sections: Section[] = used.map((s) => ({
    name: s.name,
    lines: s.lines,
    optional: s.name !== null && s.optional,
    // "the minimum number of approvals is 1"
    approvals: Math.max(1, s.approvals),
  }));
  return {
    dialect: 'gitlab',
    file,
    rules: ordered
      .flat()
      .map((e) => e.rule)
      .sort((a, b) => a.line - b.line),
    sections,
    skipped: [],
    warnings,
    ownerOf,
    ownersOf: (paths) => paths.map(ownerOf),
  };
}
