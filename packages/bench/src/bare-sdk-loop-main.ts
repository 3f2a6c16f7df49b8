#!/usr/bin/env node
// The baseline process of the serve-vs-SDK bench: the openai SDK in a minimal streaming loop with
// one tool (reads a small file, like read_file), no server, no persistence, no guards.
// Usage: node bare-sdk-loop-main.js BASE_URL ITERATIONS WORKSPACE [warm|cold] [CONTENT_JSON]
// CONTENT_JSON: a file { system, tools } sent instead of the loop's own prompt and one tool
// (Tandem's, to tell what the request's content costs from what the server adds).
// Prints one JSON line: { ms, cpuMs, peakRssMb, iterations }.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type OpenAI from 'openai';
import { minimalSdkLoop } from './minimal-sdk-loop.js';
import { procStats, resetPeakRss } from './serve-e2e/proc-stats.js';

const [baseURL, iterationsArg, workspace, warm, contentFile] = process.argv.slice(2);
if (!baseURL || !iterationsArg || !workspace) {
  console.error('usage: bare-sdk-loop-main BASE_URL ITERATIONS WORKSPACE');
  process.exit(2);
}
const limit = Number(iterationsArg) + 5;

const ownTools: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Reads a text file and returns its lines numbered.',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
    },
  },
];

const content = contentFile ? (JSON.parse(readFileSync(contentFile, 'utf8')) as { system: string; tools: OpenAI.Chat.ChatCompletionTool[] }) : undefined;

async function readTool(args: string): Promise<string> {
  const { path } = JSON.parse(args) as { path: string; limit?: number };
  const text = await readFile(join(workspace!, path), 'utf8');
  return text
    .split('\n')
    .map((line, i) => `${i + 1}\t${line}`)
    .join('\n');
}

const loop = () =>
  minimalSdkLoop({
    baseURL,
    apiKey: 'sk-bench-baseline',
    system: content?.system ?? 'You are a benchmark agent.',
    tools: content?.tools ?? ownTools,
    maxRequests: limit,
    runTool: (call) => readTool(call.args),
  });
// "warm": one unmeasured loop of the same length first (JIT and caches as in a long-lived process).
if (warm === 'warm') {
  await loop();
  await resetPeakRss('self'); // the peak reported is the measured loop's
}
const cpuBefore = process.cpuUsage();
const started = performance.now();
const iterations = await loop();
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const peakRssMb = (await procStats(process.pid)).peakRssMb;
process.stdout.write(`${JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, peakRssMb, iterations })}\n`);
