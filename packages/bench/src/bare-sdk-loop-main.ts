#!/usr/bin/env node
// The baseline process of the serve-vs-SDK bench: the openai SDK in a minimal streaming loop with
// one tool (reads a small file, like read_file), no server, no persistence, no guards.
// Usage: node bare-sdk-loop-main.js BASE_URL ITERATIONS WORKSPACE
// Prints one JSON line: { ms, cpuMs, peakRssMb, iterations }.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import OpenAI from 'openai';

const [baseURL, iterationsArg, workspace] = process.argv.slice(2);
if (!baseURL || !iterationsArg || !workspace) {
  console.error('usage: bare-sdk-loop-main BASE_URL ITERATIONS WORKSPACE');
  process.exit(2);
}
const limit = Number(iterationsArg) + 5;

const tools: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Reads a text file and returns its lines numbered.',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
    },
  },
];

async function readTool(args: string): Promise<string> {
  const { path } = JSON.parse(args) as { path: string; limit?: number };
  const text = await readFile(join(workspace!, path), 'utf8');
  return text
    .split('\n')
    .map((line, i) => `${i + 1}\t${line}`)
    .join('\n');
}

const client = new OpenAI({ baseURL, apiKey: 'sk-bench-baseline', maxRetries: 0 });
const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
  { role: 'system', content: 'You are a benchmark agent.' },
  { role: 'user', content: 'go' },
];
const cpuBefore = process.cpuUsage();
const started = performance.now();
let iterations = 0;
for (; iterations < limit; iterations++) {
  const stream = await client.chat.completions.create({ model: 'bench-model', messages, tools, stream: true });
  let text = '';
  const calls = new Map<number, { id: string; name: string; args: string }>();
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta;
    if (delta?.content) text += delta.content;
    for (const tc of delta?.tool_calls ?? []) {
      const call = calls.get(tc.index) ?? { id: '', name: '', args: '' };
      call.id ||= tc.id ?? '';
      call.name ||= tc.function?.name ?? '';
      call.args += tc.function?.arguments ?? '';
      calls.set(tc.index, call);
    }
  }
  if (calls.size === 0) break;
  const list = [...calls.values()];
  messages.push({
    role: 'assistant',
    content: text || null,
    tool_calls: list.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })),
  });
  for (const call of list) messages.push({ role: 'tool', tool_call_id: call.id, content: await readTool(call.args) });
}
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const peakRssMb = process.resourceUsage().maxRSS / 1024;
process.stdout.write(`${JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, peakRssMb, iterations })}\n`);
