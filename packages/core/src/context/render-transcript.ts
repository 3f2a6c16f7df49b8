import type { Message } from '@tandem/ai';

export interface TranscriptLimits {
  /** Longer texts (tool outputs above all) keep their head and tail (default 4,000 chars). */
  maxCharsPerMessage?: number;
  /** Past this, whole messages from the middle are left out (default 200,000 chars). */
  maxTotalChars?: number;
}

/**
 * A conversation as plain text for a summarising model call: one block per message, tool
 * calls with their arguments, long outputs clipped in the middle. Bounded in size, so a huge
 * conversation cannot make the auxiliary request itself overflow.
 */
export function renderTranscript(messages: readonly Message[], limits: TranscriptLimits = {}): string {
  const perMessage = limits.maxCharsPerMessage ?? 4_000;
  const total = limits.maxTotalChars ?? 200_000;
  const blocks = messages.map((m) => clip(renderMessage(m), perMessage));
  let size = blocks.reduce((n, b) => n + b.length + 2, 0);
  if (size <= total) return blocks.join('\n\n');
  // Drop from the middle outwards: the start (goals) and the end (latest state) matter most.
  let lo = Math.floor(blocks.length / 2);
  let hi = lo;
  while (size > total && (lo > 0 || hi < blocks.length)) {
    if (hi < blocks.length) size -= (blocks[hi++] as string).length + 2;
    if (size > total && lo > 0) size -= (blocks[--lo] as string).length + 2;
  }
  const omitted = hi - lo;
  return [...blocks.slice(0, lo), `[… ${omitted} messages omitted for length …]`, ...blocks.slice(hi)].join('\n\n');
}

function renderMessage(m: Message): string {
  switch (m.role) {
    case 'user':
      return `USER: ${m.text}`;
    case 'assistant': {
      const calls = m.toolCalls.map((c) => `TOOL CALL ${c.name}(${c.rawArgs})`);
      return [m.text ? `ASSISTANT: ${m.text}` : 'ASSISTANT:', ...calls].join('\n');
    }
    case 'tool':
      return `TOOL RESULT ${m.name}${m.isError ? ' (error)' : ''}: ${m.output}`;
  }
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor((max - 40) / 2);
  return `${text.slice(0, half)}\n[… ${text.length - 2 * half} characters clipped …]\n${text.slice(-half)}`;
}
