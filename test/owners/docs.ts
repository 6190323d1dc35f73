// The documentation sentences the conformance suites test, quoted as the hosts (and git) wrote them.
// Each test names the sentence it checks, so a reader can hold the engine to the words.
//
// GitHub: "About code owners", docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/
//   customizing-your-repository/about-code-owners (github/docs, content/repositories/.../about-code-owners.md).
// GitLab: docs.gitlab.com/user/project/codeowners/ (_index.md), .../codeowners/reference.md, .../codeowners/advanced.md.
// git: git-scm.com/docs/gitignore, "PATTERN FORMAT" (Documentation/gitignore.adoc).
// Ruby: File.fnmatch (dir.c), which GitLab names as its matcher.

export const GITHUB = {
  location: 'If CODEOWNERS files exist in more than one of those locations, GitHub will search for them in that order and use the first one it finds.',
  size: 'CODEOWNERS files must be under 3 MB in size. A CODEOWNERS file over this limit will not be loaded',
  gitignore: 'A CODEOWNERS file uses a pattern that follows most of the same rules used in gitignore files.',
  ownerFormat: 'The pattern is followed by one or more GitHub usernames or team names using the standard @username or @org/team-name format.',
  email: 'You can also refer to a user by an email address that has been added to their account, for example user@example.com.',
  sameLine:
    'If you want to match two or more code owners with the same pattern, all the code owners must be on the same line. ' +
    'If the code owners are not on the same line, the pattern matches only the last mentioned code owner.',
  caseSensitive: 'CODEOWNERS paths are case sensitive, because GitHub uses a case sensitive file system.',
  invalidLine: 'If any line in your CODEOWNERS file contains invalid syntax, that line will be skipped.',
  exampleDefault:
    'These owners will be the default owners for everything in the repo. Unless a later match takes precedence, ' +
    '@global-owner1 and @global-owner2 will be requested for review',
  exampleOrder:
    'Order is important; the last matching pattern takes the most precedence. When someone opens a pull request that only modifies JS files, ' +
    'only @js-owner and not the global owner(s) will be requested for a review.',
  exampleInlineComment: '*.js    @js-owner #This is an inline comment.',
  exampleEmail: 'You can also use email addresses if you prefer.',
  exampleTeam: 'Teams can be specified as code owners as well. Teams should be identified in the format @org/team-name.',
  exampleBuildLogs: 'In this example, @doctocat owns any files in the build/logs directory at the root of the repository and any of its subdirectories.',
  exampleDocsStar:
    'The `docs/*` pattern will match files like `docs/getting-started.md` but not further nested files like ' + '`docs/build-app/troubleshooting.md`.',
  exampleApps: 'In this example, @octocat owns any file in an apps directory anywhere in your repository.',
  exampleRootDocs: 'In this example, @doctocat owns any file in the `/docs` directory in the root of your repository and any of its subdirectories.',
  exampleScripts: 'In this example, any change inside the `/scripts` directory will require approval from @doctocat or @octocat.',
  exampleLogs: 'In this example, @octocat owns any file in a `/logs` directory such as `/build/logs`, `/scripts/logs`, and `/deeply/nested/logs`.',
  exampleEmptyOwners:
    'In this example, @octocat owns any file in the `/apps` directory in the root of your repository except for the ' +
    '`/apps/github` subdirectory, as its owners are left empty.',
  exampleOwnOwner:
    'In this example, @octocat owns any file in the `/apps` directory in the root of your repository except for the ' +
    '`/apps/github` subdirectory, as this subdirectory has its own owner @doctocat',
  exceptionHash:
    'There are some syntax rules for gitignore files that do not work in CODEOWNERS files: Escaping a pattern ' +
    'starting with # using \\ so it is treated as a pattern and not a comment',
  exceptionBang: 'There are some syntax rules for gitignore files that do not work in CODEOWNERS files: Using ! to negate a pattern',
  exceptionRange: 'There are some syntax rules for gitignore files that do not work in CODEOWNERS files: Using [ ] to define a character range',
} as const;

export const GIT = {
  blank: 'A blank line matches no files, so it can serve as a separator for readability.',
  comment: 'A line starting with # serves as a comment.',
  trailingSpaces: 'Trailing spaces are ignored unless they are quoted with backslash ("\\").',
  anchoring:
    'If there is a separator at the beginning or middle (or both) of the pattern, then the pattern is relative to ' +
    'the directory level of the particular .gitignore file itself. ' +
    'Otherwise the pattern may also match at any level below the .gitignore level.',
  trailingSlash:
    'If there is a separator at the end of the pattern then the pattern will only match directories, otherwise the ' +
    'pattern can match both files and directories.',
  frotz: 'a pattern doc/frotz/ matches doc/frotz directory, but not a/doc/frotz directory; however frotz/ matches frotz and a/frotz that is a directory',
  star: 'An asterisk "*" matches anything except a slash. The character "?" matches any one character except "/".',
  backslash: 'A backslash ("\\") can be used to escape any character. E.g., "\\*" matches a literal asterisk',
  backslashEnd: 'a backslash at the end of a pattern is an invalid pattern that never matches.',
  leadingStars:
    'A leading "**" followed by a slash means match in all directories. For example, "**/foo" matches file or ' +
    'directory "foo" anywhere, the same as pattern "foo".',
  trailingStars: 'A trailing "/**" matches everything inside. For example, "abc/**" matches all files inside directory "abc"',
  middleStars:
    'A slash followed by two consecutive asterisks then a slash matches zero or more directories. For example, ' +
    '"a/**/b" matches "a/b", "a/x/b", "a/x/y/b" and so on.',
  otherStars: 'Other consecutive asterisks are considered regular asterisks and will match according to the previous rules.',
  hello:
    'If one wants to restrict this only to the directory and not in its subdirectories, one can prepend the pattern with a slash, i.e. /hello.*; ' +
    'the pattern now matches hello.txt, hello.c but not a/hello.java.',
  sameEffect: 'The pattern doc/frotz and /doc/frotz have the same effect in any .gitignore file.',
} as const;

export const GITLAB = {
  location:
    'Each repository uses a single CODEOWNERS file. GitLab checks these locations in your repository in this order. ' +
    'The first CODEOWNERS file found is used, and all others are ignored',
  comments: 'Lines starting with # are ignored. Inline comments are unsupported. Any Code Owners listed in a comment are parsed.',
  sectionsSeparate: 'In a CODEOWNERS file, sections are named areas that are analyzed separately, and always enforced.',
  unnamedSection: 'GitLab treats entries without sections, including rules defined before the first section header, as if they were another, unnamed section.',
  onePerSection: 'Only one Code Owner pattern per section is matched to a file path.',
  readmeExample: "Both lines in [README Owners] match this file's name, but only the last line in the section is kept.",
  duplicateEntry: 'If an entry is duplicated in a section, the last entry is used.',
  sectionNames: 'Section names are case-insensitive, and sections with duplicate names are combined.',
  duplicateSections: 'The entries defined under the sections Documentation and DOCUMENTATION are combined, using the case of the first section.',
  optional: 'To treat the entire section as optional, prepend the section name with the caret ^ character.',
  optionalConflict: "If a section is duplicated in the file, and one of them is marked as optional and the other isn't, the section is required.",
  approvals: 'Append the section name with a number n in brackets, for example, [2] or [3]. This requires n approvals from the Code Owners in this section.',
  minimumApprovals: 'Setting the number of approvals to 0 results in GitLab requiring one approval.',
  defaultOwners:
    'Default owners are applied when specific owners are not specified for file paths. Specific owners defined ' +
    'beside the file path override default owners.',
  defaultsAtEnd: 'To combine the syntax for default owners with optional sections and required approvals, place default owners at the end',
  regularAndSections:
    'A merge request that modifies model/db/CHANGELOG.txt would require three approvals: one from each of the ' +
    '@general-approvers,@docs-team, and @database-team groups.',
  lastPattern: 'When a file or directory matches multiple entries in the CODEOWNERS file, the users from last pattern matching the file or directory are used.',
  fnmatch: 'GitLab uses File::fnmatch with the File::FNM_DOTMATCH and File::FNM_PATHNAME flags set for pattern matching',
  dotmatch: 'The File::FNM_DOTMATCH flag allows * to match dotfiles like .gitignore.',
  pathname: 'The File::FNM_PATHNAME flag prevents * from matching the / path separator.',
  globstar: '** matches directories recursively. For example, **/*.rb matches config/database.rb and app/controllers/users/stars_controller.rb.',
  absolute: 'Paths starting with / match from the repository root',
  relative:
    'Paths without a leading / are treated as globstar paths: # Matches /internal/README.md, ' +
    '/docs/internal/README.md, /docs/api/internal/README.md internal/README.md',
  directory: 'End a path with / to match all files in the directory and its subdirectories',
  wildcard: '# README.md files one level deep within the docs directory # For example: /docs/api/README.md /docs/*/README.md @username',
  exclusions: 'Prefix files or paths with ! to exempt or exclude them from requiring code owner approval. Exclusions apply in their section.',
  exclusionOrder: 'Exclusions are evaluated in order in their section.',
  exclusionFinal: 'After a pattern is excluded, it cannot be included again in the same section',
  roles: 'Use the @@ prefix to set a role. Only Developer, Maintainer, and Owner roles are available.',
  pluralRoles: 'It is possible to specify plural roles. For example, @@developers is accepted.',
  groups: 'Use group names to match groups and nested groups: README @group @group/with-nested/subgroup',
  escapedSpaces: 'Escape whitespace in paths with backslashes: path\\ with\\ spaces/*.md @owner',
  unparsableSection: 'If a section heading cannot be parsed, the section is: 1. Parsed as an entry. 2. Added to the previous section.',
  malformedOwners: 'Each entry must contain one or more owners. Malformed owners are invalid and ignored',
  zeroOwners:
    'If an entry includes no owners, or zero accessible owners exist, the entry is invalid. Because this rule can ' +
    'never be satisfied, GitLab auto-approves it in merge requests.',
} as const;
