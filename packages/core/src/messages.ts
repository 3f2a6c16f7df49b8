/**
 * The engine's one internal message model. Provider adapters map it to and from their wire
 * formats; the server rebuilds it from the session's event log.
 */
export interface ToolCall {
  id: string;
  name: string;
  /** Parsed arguments; `undefined` when the model sent arguments that are not valid JSON. */
  args: unknown;
  /** The raw argument text exactly as the model sent it. */
  rawArgs: string;
}

export interface UserMessage {
  role: 'user';
  text: string;
}

export interface AssistantMessage {
  role: 'assistant';
  text: string;
  toolCalls: ToolCall[];
}

export interface ToolResultMessage {
  role: 'tool';
  callId: string;
  name: string;
  output: string;
  isError: boolean;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;
