// Short ways to read a CODEOWNERS text as each host does, for the conformance suites.
import { parseCodeowners, type Codeowners } from '../../src/owners/index.js';

export const github = (text: string): Codeowners => parseCodeowners(text, { dialect: 'github', file: '.github/CODEOWNERS' });
export const gitlab = (text: string): Codeowners => parseCodeowners(text, { dialect: 'gitlab', file: 'CODEOWNERS' });

/** The owners of one path. */
export const ownersOf = (co: Codeowners, path: string): readonly string[] => co.ownerOf(path).owners;

/** The same CODEOWNERS lines, one per array item. */
export const file = (...lines: string[]): string => `${lines.join('\n')}\n`;
