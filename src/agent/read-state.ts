// The seed's readFileState, one per conversation: what the model has seen of each file. The engine
// compares it with the file's current text, so an edit based on an old view fails as `stale`.
import type { ReadState } from '../core/index.js';

export class ReadStates {
  private readonly seen = new Map<string, ReadState>();

  /** What the engine's `read` option wants: null for a file never read in this conversation. */
  get(path: string): ReadState | null {
    return this.seen.get(path) ?? null;
  }

  /**
   * A read of `text`. A part of a file already seen whole, unchanged, leaves the full view: the
   * model still holds every line.
   */
  markRead(path: string, text: string, partial: boolean): void {
    const prev = this.seen.get(path);
    const stillWhole = prev !== undefined && !prev.partial && prev.text === text;
    this.seen.set(path, { text, partial: partial && !stillWhole });
  }

  /** After the model's own successful change, its view is the new text (how much of it, unchanged). */
  markWritten(path: string, text: string, whole: boolean): void {
    const prev = this.seen.get(path);
    this.seen.set(path, { text, partial: whole ? false : (prev?.partial ?? false) });
  }
}
