// What to tell the model after each kind of refusal: the engine says what is wrong, this says what to do.
import type { Failure } from '../../errors.js';
import { notFoundHint, notUniqueHint, prefixHint } from './hints.js';

export const guardAdvice = 'Only the files of this job can be read or changed: use glob to list them, and leave this path alone.';

export interface EditAttempt {
  readonly tool: 'edit_file' | 'write_file' | 'notebook_edit';
  readonly path: string;
  /** The file's current LF text, when it exists and decodes. */
  readonly text: string | null;
  readonly oldString?: string;
}

export function adviceFor(f: Failure, a: EditAttempt): string | null {
  switch (f.kind) {
    case 'not-found': {
      if (a.oldString === undefined || a.text === null) return null;
      return [prefixHint(a.oldString), notFoundHint(a.text, a.oldString)].filter((s) => s !== null).join('\n');
    }
    case 'not-unique':
      return a.oldString !== undefined && a.text !== null ? notUniqueHint(a.text, a.oldString) : null;
    case 'not-read':
      return a.tool === 'write_file' && /only read in part/.test(f.message)
        ? `Call read_file on ${a.path} without offset and limit to read all of it, or change it with edit_file instead.`
        : `Call read_file on ${a.path} first, then retry.`;
    case 'stale':
      return `${a.path} was changed after you read it (by another edit in this job). Call read_file on it again and redo your change against its current text.`;
    case 'file-missing':
      return 'To create a new file, use write_file. Use glob to find existing files.';
    case 'file-exists':
      return 'An empty old_string means "create the file", and this file already exists: put the text to replace in old_string.';
    case 'notebook':
      return `Use notebook_edit to change the cells of ${a.path}.`;
    case 'no-op':
      return 'old_string and new_string are the same; if nothing needs to change here, move on.';
    case 'secret':
      return 'Never write credentials into files: read them from the environment or a secret store instead.';
    case 'invalid-result':
      return 'The result would no longer be valid; change the text so the file still parses (and still matches its schema).';
    case 'denied':
    case 'outside':
    case 'unc-path':
    case 'unsupported':
      return guardAdvice;
    case 'binary':
    case 'encoding':
    case 'too-large':
      return 'Leave this file alone.';
    case 'guard':
      return (
        'The tests and the checks are how this job is judged: make them pass by changing the code they test, ' +
        "never the tests, their markers or the checks' settings. If that is not possible, stop and say why in your final sentence."
      );
    default:
      return null;
  }
}
