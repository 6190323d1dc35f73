// A scripted model: for each conversation (named by the file in its first message, or "job"), the
// answer to its n-th request. Turns may look at the request (to react to tool results).
import type Anthropic from '@anthropic-ai/sdk';
import type { MessagesBody, Model, Reply } from './fake-api.js';

export type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };
export type Turn = Block[] | ((body: MessagesBody) => Block[] | Reply);

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

/** The text of the request's first message (the task, and the file of a per-file conversation). */
export function firstMessageText(body: MessagesBody): string {
  const first = body.messages[0]?.content;
  if (first === undefined) throw new Error('The request has no messages.');
  return typeof first === 'string' ? first : first.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

/** The conversation a request belongs to: the file shown in its first message, else "job". */
export function conversationOf(body: MessagesBody): string {
  return /<file path="([^"]+)">/.exec(firstMessageText(body))?.[1] ?? 'job';
}

/** How many answers this conversation has had before this request. */
export const turnOf = (body: MessagesBody): number => body.messages.filter((m) => m.role === 'assistant').length;

/** The system prompt: scion sends it as a list of text blocks, never as a plain string. */
export function systemBlocks(body: MessagesBody): Anthropic.Messages.TextBlockParam[] {
  if (!Array.isArray(body.system)) throw new Error('The request has no system prompt in blocks.');
  return body.system;
}

/** The tools a request offers: scion offers only its own (with an input schema), none of the API's server tools. */
export function customTools(body: MessagesBody): Anthropic.Messages.Tool[] {
  return (body.tools ?? []).map((t) => {
    if (!('input_schema' in t)) throw new Error(`The request offers a tool that is not one of scion's: ${JSON.stringify(t)}`);
    return t;
  });
}

/** A tool result as scion sends it: its content is always text. */
export interface ToolResult {
  content: string;
  is_error?: boolean;
  tool_use_id: string;
}

/** The tool_result blocks the request carries (the answers to the model's last tool calls). */
export function toolResults(body: MessagesBody): ToolResult[] {
  const last = body.messages.at(-1);
  if (last === undefined || typeof last.content === 'string') return [];
  return last.content.flatMap((b) => {
    if (b.type !== 'tool_result') return [];
    if (typeof b.content !== 'string') throw new Error(`The result of tool call ${b.tool_use_id} is not text.`);
    return [{ ...b, content: b.content }];
  });
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
