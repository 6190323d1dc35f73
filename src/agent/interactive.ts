// The ordinary transport: one Messages API request per turn, until the conversation ends.
import type { Conversation } from './conversation.js';
import { account, apiFailure, timeoutFailure, type AgentRun } from './agent-run.js';

export async function converse(run: AgentRun, conv: Conversation): Promise<void> {
  while (conv.state.kind === 'waiting') {
    if (run.signal.aborted) {
      conv.fail(timeoutFailure(run, conv.file));
      return;
    }
    let msg;
    try {
      msg = await run.client.messages.create(conv.request(), { signal: run.signal });
    } catch (e) {
      conv.fail(apiFailure(run, e, conv.file));
      return;
    }
    account(run, conv.usage, msg.usage, false);
    await conv.receive(msg);
  }
}
