// The checks of the engine's front, each returning a Failure or null; prepare.ts runs them in the seed's order
// (secret, the call's own refusal, path, surrogate, size, encoding, missing, notebook, read).
import { failure, fail, ok, type Failure, type Result } from '../../errors.js';
import { checkPath } from '../check-path.js';
import { DEFAULT_MAX_BYTES } from '../limits.js';
import { decodeFile, type DecodedFile } from '../text/decode.js';
import { hasLoneSurrogate } from '../text/encode.js';
import { firstAddedSecret, scanSecrets } from '../edit/secrets.js';
import type { EngineOptions, FileInput } from '../types.js';

const SECRET_NAMES: Readonly<Record<string, string>> = {
  'private-key': 'a private key block',
  'github-token': 'a GitHub token',
  'github-fine-grained-token': 'a GitHub fine-grained token',
  'gitlab-token': 'a GitLab token',
  'slack-token': 'a Slack token',
  'aws-access-key-id': 'an AWS access key id',
  'anthropic-api-key': 'an Anthropic API key',
  'openai-api-key': 'an OpenAI API key',
  'stripe-secret-key': 'a Stripe secret key',
  'google-api-key': 'a Google API key',
  'npm-token': 'an npm token',
};

/**
 * New text that holds a credential the file did not already hold. Only when the new strings look
 * like one is the file decoded here, so the common case costs a scan of the new strings alone.
 */
export function secretCheck(path: string, added: readonly string[], file: FileInput, opts: EngineOptions): Failure | null {
  if (!added.some((s) => scanSecrets(s).length > 0)) return null;
  const before = file.bytes !== null && file.bytes.length <= (opts.maxBytes ?? DEFAULT_MAX_BYTES) ? decodeFile(file.bytes) : null;
  const hit = firstAddedSecret(added, before?.ok ? before.value.text : '');
  return hit === null ? null : secretFailure(path, hit.name);
}

/**
 * The same check for bytes something other than the engine wrote (a command, a replayed cache entry):
 * the whole new content is the added text, and what the file held before is not "added". Bytes that
 * do not decode are read as Latin-1, so a token in a file of any encoding is still seen.
 */
export function writtenSecret(path: string, before: Uint8Array | null, after: Uint8Array, opts: EngineOptions = {}): Failure | null {
  const decoded = decodeFile(after);
  const text = decoded.ok ? decoded.value.text : new TextDecoder('latin1').decode(after);
  return secretCheck(path, [text], { path, bytes: before }, opts);
}

export function secretFailure(path: string, name: string): Failure {
  return failure(
    'secret',
    `The new content for ${path} would add ${SECRET_NAMES[name] ?? 'a credential'} (${name}); credentials are never written. Use an environment ` +
      `variable or a secret store instead.`,
    { path, secret: name },
  );
}

export function unicodeCheck(path: string, added: readonly string[]): Failure | null {
  if (!added.some(hasLoneSurrogate)) return null;
  return failure('encoding', `The new content for ${path} holds a lone UTF-16 surrogate, which no encoding can write without loss.`, { path });
}

export function sizeCheck(path: string, bytes: Uint8Array | null, opts: EngineOptions): Failure | null {
  const max = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  if (bytes === null || bytes.length <= max) return null;
  return failure('too-large', `${path} is too large to edit (${bytes.length} bytes; the limit is ${max}).`, { path, size: bytes.length, maxBytes: max });
}

/** Decodes an existing file; a missing file decodes to null. */
export function decodeInput(path: string, bytes: Uint8Array | null): Result<DecodedFile | null> {
  return bytes === null ? ok(null) : decodeAt(path, bytes);
}

/** Decodes a file's bytes; a failure (binary, not valid in its encoding) names the path. */
export function decodeAt(path: string, bytes: Uint8Array): Result<DecodedFile> {
  const d = decodeFile(bytes);
  if (d.ok) return d;
  return fail({ ...d.error, message: `${path}: ${d.error.message}`, data: { ...d.error.data, path } });
}

export function pathCheck(file: FileInput, opts: EngineOptions): Result<string> {
  return checkPath(file.path, opts.isDenied ? { isDenied: opts.isDenied } : {});
}

export function missingFailure(path: string, opts: EngineOptions): Failure {
  const similar = opts.suggestPaths?.(path) ?? [];
  const hint = similar.length > 0 ? ` Did you mean ${similar.join(', ')}?` : '';
  return failure('file-missing', `${path} does not exist.${hint} To create it, use an empty old_string or a write step.`, {
    path,
    suggestions: [...similar],
  });
}

/**
 * Read-before-edit (the agent's readFileState). `partialOk`: edits may follow a partial read; a
 * whole-file write may not, since it would overwrite lines the model never saw.
 */
export function readCheck(path: string, current: string, opts: EngineOptions, partialOk: boolean): Failure | null {
  if (opts.read === undefined) return null;
  if (opts.read === null || (!partialOk && opts.read.partial)) {
    const what = opts.read === null ? 'has not been read yet' : 'was only read in part';
    return failure('not-read', `${path} ${what}. Read it first before writing to it.`, { path });
  }
  if (opts.read.text !== current) {
    return failure('stale', `${path} has been modified since it was read. Read it again before editing it.`, { path });
  }
  return null;
}

export function notebookRefusal(path: string): Failure | null {
  if (!/\.ipynb$/i.test(path)) return null;
  return failure('notebook', `${path} is a Jupyter notebook: use a notebook step (notebook_edit) to change its cells.`, { path });
}
