// The failures an edit can meet, worded once: each says what was wrong and how to fix it.
import { failure, type Failure } from '../../errors.js';

export interface At {
  readonly path: string;
  /** Index of the edit in its sequence, and the sequence's length. */
  readonly edit?: number;
  readonly of?: number;
}

const where = (at: At): string => (at.of !== undefined && at.of > 1 && at.edit !== undefined ? ` (edit ${at.edit + 1} of ${at.of})` : '');
const data = (at: At, more: Record<string, unknown> = {}): Record<string, unknown> => ({
  path: at.path,
  ...(at.edit === undefined ? {} : { edit: at.edit }),
  ...more,
});

export function fileExists(at: At): Failure {
  return failure(
    'file-exists',
    `Cannot create ${at.path}${where(at)}: it already has content. An empty old_string creates a file; to change this one, give the text to replace.`,
    data(at),
  );
}

export function cascade(at: At, previous: number): Failure {
  return failure(
    'cascade',
    `Cannot edit ${at.path}${where(at)}: old_string is a substring of a new_string from a previous edit, so it could match text that edit just ` +
      `wrote. Target the original text, or merge the two edits.`,
    data(at, { previous }),
  );
}

export function notFound(at: At, oldString: string): Failure {
  return failure(
    'not-found',
    `String to replace not found in ${at.path}${where(at)}. Re-read the file and copy old_string exactly.\nString: ${oldString}`,
    data(at, { oldString }),
  );
}

export function notUnique(at: At, count: number, oldString: string): Failure {
  return failure(
    'not-unique',
    `Found ${count} matches of the string to replace in ${at.path}${where(at)}, but replace_all is false: add more context to identify one ` +
      `occurrence, or set replace_all to true.\nString: ${oldString}`,
    data(at, { count, oldString }),
  );
}

/** The seed throws "String not found in file. Failed to apply edit." when an edit changed nothing. */
export function changesNothing(at: At, oldString: string): Failure {
  return failure(
    'not-found',
    `Edit on ${at.path}${where(at)} changes nothing: once trailing whitespace is stripped, new_string equals the text it replaces. String not found ` +
      `in file. Failed to apply edit.`,
    data(at, { oldString }),
  );
}
