// One conversation with the model: its messages, its turn count and where it stands. Transport-free:
// the interactive and batch drivers both ask it for the next request and hand it the answer.
import type Anthropic from '@anthropic-ai/sdk';
import { failure, type Failure } from '../errors.js';
import { SYSTEM_PROMPT } from './prompt.js';
import type { ToolContext } from './tools/context.js';
import { runTool } from './tools/run-tool.js';
import { toolDefinitions } from './tools/schemas.js';
import { UsageMeter } from './usage.js';

type Message = Anthropic.Messages.Message;
type MessageParam = Anthropic.Messages.MessageParam;
type BlockParam = Anthropic.Messages.ContentBlockParam;
type ToolResult = Anthropic.Messages.ToolResultBlockParam;

export type ConversationState = { readonly kind: 'waiting' } | { readonly kind: 'done' } | { readonly kind: 'failed'; readonly failure: Failure };

export interface ConversationInit {
  /** Unique in the step: a batch's custom_id. */
  readonly id: string;
  /** The file this conversation is about (per: file), or null (per: job). */
  readonly file: string | null;
  /** The response-cache key of this conversation. */
  readonly key: string;
  readonly firstMessage: string;
  readonly tools: ToolContext;
  readonly model: string;
  readonly maxTokens: number;
  readonly maxTurns: number;
}

const TOOLS = toolDefinitions();
const SYSTEM: Anthropic.Messages.TextBlockParam[] = [{ type: 'text', text: SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } }];

export class Conversation {
  readonly usage = new UsageMeter();
  private readonly messages: MessageParam[];
  private turns = 0;
  private current: ConversationState = { kind: 'waiting' };
  /** The model's closing sentence (what it changed, or why not). */
  finalText = '';

  constructor(readonly init: ConversationInit) {
    this.messages = [{ role: 'user', content: [{ type: 'text', text: init.firstMessage }] }];
  }

  get state(): ConversationState {
    return this.current;
  }

  get file(): string | null {
    return this.init.file;
  }

  fail(f: Failure): void {
    if (this.current.kind === 'waiting') this.current = { kind: 'failed', failure: f };
  }

  /** The next Messages API request. The newest user turn carries a cache breakpoint, so each round
   * trip reads the conversation so far from the prompt cache instead of paying for it again. */
  request(): Anthropic.Messages.MessageCreateParamsNonStreaming {
    const last = this.messages.length - 1;
    const messages = this.messages.map((m, i) => (i === last ? withBreakpoint(m) : m));
    return { model: this.init.model, max_tokens: this.init.maxTokens, system: SYSTEM, tools: TOOLS, messages };
  }

  /** The model's answer: run its tool calls (in order) and queue their results, or finish. */
  async receive(msg: Message): Promise<void> {
    if (this.current.kind !== 'waiting') return;
    this.turns++;
    const calls = msg.content.filter((b): b is Anthropic.Messages.ToolUseBlock => b.type === 'tool_use');
    if (calls.length === 0) {
      if (msg.stop_reason === 'refusal') this.fail(failure('agent', `The model declined the task for ${this.label()} (stop_reason "refusal").`, this.data()));
      else if (msg.stop_reason === 'model_context_window_exceeded') {
        this.fail(failure('agent', `The conversation about ${this.label()} outgrew the model's context window; select fewer or smaller files.`, this.data()));
      } else {
        this.current = { kind: 'done' };
        this.finalText = msg.content
          .flatMap((b) => (b.type === 'text' ? [b.text] : []))
          .join(' ')
          .trim();
      }
      return;
    }
    this.messages.push({ role: 'assistant', content: msg.content.flatMap(toParam) });
    const results: ToolResult[] = [];
    for (const call of calls) {
      // A tool call cut off by max_tokens has partial input: running it could write half a file.
      const r =
        msg.stop_reason === 'max_tokens'
          ? {
              content: `Your answer was cut off at maxTokens (${this.init.maxTokens}) before this call was complete, so it was not run. Make smaller edits.`,
              isError: true,
            }
          : await runTool(this.init.tools, call.name, call.input);
      results.push({ type: 'tool_result', tool_use_id: call.id, content: r.content, ...(r.isError ? { is_error: true } : {}) });
    }
    this.messages.push({ role: 'user', content: results });
    if (this.turns >= this.init.maxTurns) {
      this.fail(
        failure(
          'agent',
          `The model did not finish ${this.label()} within maxTurns (${this.init.maxTurns}) round trips; the edits it made so far are kept. Raise ` +
            `maxTurns or make the prompt narrower.`,
          this.data(),
        ),
      );
    }
  }

  private label(): string {
    return this.init.file ?? 'the job';
  }

  private data(): Record<string, unknown> {
    return this.init.file === null ? {} : { file: this.init.file };
  }
}

/** Response blocks as request blocks. Empty text blocks are dropped: the API refuses them. */
function toParam(b: Anthropic.Messages.ContentBlock): BlockParam[] {
  if (b.type === 'text') return b.text === '' ? [] : [{ type: 'text', text: b.text }];
  if (b.type === 'tool_use') return [{ type: 'tool_use', id: b.id, name: b.name, input: b.input }];
  // Thinking blocks must go back as they came.
  return [b as unknown as BlockParam];
}

function withBreakpoint(m: MessageParam): MessageParam {
  if (typeof m.content === 'string') return { ...m, content: [{ type: 'text', text: m.content, cache_control: { type: 'ephemeral' } }] } as MessageParam;
  const blocks = [...m.content];
  const end = blocks.length - 1;
  const tail = blocks[end];
  if (tail === undefined || (tail.type !== 'text' && tail.type !== 'tool_result')) return m;
  blocks[end] = { ...tail, cache_control: { type: 'ephemeral' } } as BlockParam;
  return { ...m, content: blocks } as MessageParam;
}
