import type { Message } from '@tandem/ai';
import { runTurn } from '../loop/run-turn.js';
import { turnOptions, type TurnSetup } from '../loop/turn-harness.test-helper.js';
import type { EngineEvent } from '../loop/types.js';
import type { ConversationEvent } from './conversation-builder.js';

/**
 * A session as the server runs it: the live conversation the loop works on, and the persisted
 * log (the user's message, then every engine event as JSON, text deltas left out). Turns are
 * t1, t2, … of session `s`, asked by ana with system prompt `sys` in `/w`.
 */
export function recordedSession(defaults: Partial<TurnSetup> & Pick<TurnSetup, 'model' | 'tools'>) {
  const conversation: Message[] = [];
  const log: ConversationEvent[] = [];
  let turn = 0;
  /** Runs one turn on `text`; `over` wins over the session's defaults; `onEvent` sees each event. */
  async function play(text: string, over: Partial<TurnSetup> = {}, onEvent?: (e: EngineEvent) => void): Promise<EngineEvent[]> {
    const turnId = `t${++turn}`;
    log.push({ type: 'user_message', text, by: 'ana', mode: 'turn' });
    const options = turnOptions({ sessionId: 's', turnId, conversation, userText: text, system: 'sys', cwd: '/w', ...defaults, ...over });
    const events: EngineEvent[] = [];
    for await (const e of runTurn(options)) {
      events.push(e);
      if (e.type !== 'text_delta') log.push(JSON.parse(JSON.stringify(e)) as EngineEvent);
      onEvent?.(e);
    }
    return events;
  }
  return { conversation, log, play };
}
