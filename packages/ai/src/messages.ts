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

/**
 * An image a tool returned (an MCP tool's image content). `data` (base64) is present while the
 * bytes are in memory; the session's event log keeps only `mimeType`, `bytes` and `ref` (the
 * stored copy's name), and the host reloads `data` from `ref` before a model request. A
 * provider sends the image when it has `data`, else a one-line note.
 */
export interface ToolImage {
  mimeType: string;
  /** Decoded size. */
  bytes: number;
  data?: string;
  ref?: string;
}

export interface ToolResultMessage {
  role: 'tool';
  callId: string;
  name: string;
  output: string;
  isError: boolean;
  /** Images that came with the result (absent for text-only results). */
  images?: ToolImage[];
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;
