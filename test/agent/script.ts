// A scripted model: for each conversation (named by the file in its first message, or "job"), the
// answer to its n-th request. Turns may look at the request (to react to tool results).
import type { Model, Reply } from './fake-api.js';

export type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };
export type Turn = Block[] | ((body: any) => Block[] | Reply);

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export const DEFAULT_USAGE: Usage = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

let ids = 0;
export const tool = (name: string, input: unknown): Block => ({ type: 'tool_use', id: `toolu_${++ids}`, name, input });
export const text = (t: string): Block => ({ type: 'text', text: t });
export const done = (t = 'Done.'): Block[] => [text(t)];

export function message(content: Block[], usage: Usage = DEFAULT_USAGE, stopReason?: string): Reply {
  return {
    json: {
      id: `msg_${++ids}`,
      type: 'message',
      role: 'assistant',
      model: 'fake',
      content,
      stop_reason: stopReason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
      stop_sequence: null,
      usage: { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...usage },
    },
  };
}

/** The conversation a request belongs to: the file shown in its first message, else "job". */
export function conversationOf(body: any): string {
  const first = body.messages[0].content;
  const t = typeof first === 'string' ? first : first.map((b: any) => b.text ?? '').join('');
  return /<file path="([^"]+)">/.exec(t)?.[1] ?? 'job';
}

/** How many answers this conversation has had before this request. */
export const turnOf = (body: any): number => body.messages.filter((m: any) => m.role === 'assistant').length;

/** The tool_result blocks the request carries (the answers to the model's last tool calls). */
export function toolResults(body: any): { content: string; is_error?: boolean; tool_use_id: string }[] {
  const last = body.messages[body.messages.length - 1];
  return typeof last.content === 'string' ? [] : last.content.filter((b: any) => b.type === 'tool_result');
}

export function scripted(turns: Record<string, Turn[]>, usage: Usage = DEFAULT_USAGE): Model {
  return (body) => {
    const who = conversationOf(body);
    const n = turnOf(body);
    const turn = turns[who]?.[n];
    if (turn === undefined)
      return { status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message: `no scripted turn ${n} for ${who}` } } };
    const out = typeof turn === 'function' ? turn(body) : turn;
    return Array.isArray(out) ? message(out, usage) : out;
  };
}
