import { createHash } from 'node:crypto';
import type { FakeRequest } from './fake-reply.js';

/**
 * How the scripted server's prompt cache behaves. The defaults cache anything (tests use short
 * prompts); `realistic()` gives the providers' published rules for benchmarks.
 */
export interface PromptCacheOptions {
  /** A prefix shorter than this many tokens is never cached (Anthropic: 1,024 for Sonnet/Opus; OpenAI: 1,024). Default 0. */
  minTokens?: number;
  /** OpenAI counts cached tokens in steps of this many (128 there). Default 1. */
  openaiStep?: number;
  /** Anthropic looks for an earlier cache entry this many blocks back from each breakpoint (20 there). Default 20. */
  lookbackBlocks?: number;
  /** How many earlier prompts per model the OpenAI side compares with. Default 64. */
  openaiKept?: number;
  /**
   * Report the prompt's own tokens as the request's input (its blocks, or its tools and messages),
   * not an estimate of the whole body: a body's other fields (model, max_tokens, metadata) are
   * no tokens, and would count as uncached input that no breakpoint can reach. Default false.
   */
  countPrompt?: boolean;
}

/** The providers' published rules: 1,024-token minimum, OpenAI's 128-token steps, Anthropic's 20-block lookback. */
export function realisticPromptCache(): PromptCacheOptions {
  return { minTokens: 1024, openaiStep: 128, lookbackBlocks: 20, countPrompt: true };
}

/** What one request reads from and writes to the cache, in tokens (about four characters each). */
export interface CacheUse {
  read: number;
  write: number;
  /** With `countPrompt`: the prompt's own tokens, reported as the request's input. */
  prompt?: number;
}

/** One cacheable piece of an Anthropic prompt, in the order the API reads them: tools, system, messages. */
interface Segment {
  /** Its bytes with any `cache_control` left out (a marker does not change what is cached). */
  text: string;
  breakpoint: boolean;
}

/**
 * The prompt caches of both wire formats, as the fake model server keeps them for one run.
 *
 * Anthropic (explicit): the prompt is a list of blocks (each tool, each system block, each
 * message's content blocks). A block with `cache_control` is a breakpoint: the prefix up to it is
 * written to the cache, and a request reads the longest prefix found in the cache at a breakpoint
 * or up to `lookbackBlocks` blocks before one. Tokens after the last breakpoint are plain input.
 *
 * OpenAI (automatic): the prompt is the tools followed by the messages, as sent; the longest run of
 * leading bytes it shares with an earlier prompt of the same model is read from the cache,
 * counted in `openaiStep` steps, once it reaches `minTokens`.
 */
export class PromptCacheSim {
  private readonly anthropicEntries = new Map<string, Set<string>>();
  private readonly openaiPrompts = new Map<string, string[]>();
  private readonly minTokens: number;
  private readonly openaiStep: number;
  private readonly lookback: number;
  private readonly openaiKept: number;
  private readonly countPrompt: boolean;

  constructor(options: PromptCacheOptions = {}) {
    this.minTokens = options.minTokens ?? 0;
    this.openaiStep = Math.max(1, options.openaiStep ?? 1);
    this.lookback = options.lookbackBlocks ?? 20;
    this.openaiKept = options.openaiKept ?? 64;
    this.countPrompt = options.countPrompt ?? false;
  }

  /** What `request` reads from and writes to the cache; the cache is updated as the provider would. */
  use(request: FakeRequest): CacheUse {
    if (request.format === 'anthropic') return this.anthropic(request.model ?? '', request.body);
    if (request.format === 'openai') return this.openai(request.model ?? '', request.body);
    return { read: 0, write: 0 };
  }

  /** Forgets everything cached (e.g. between benchmark runs that must not share a cache). */
  clear(): void {
    this.anthropicEntries.clear();
    this.openaiPrompts.clear();
  }

  private anthropic(model: string, body: any): CacheUse {
    const segments = anthropicSegments(body);
    const hashes: string[] = [];
    const tokens: number[] = [];
    let hash = createHash('sha256').update(model).digest('hex');
    let total = 0;
    for (const s of segments) {
      hash = createHash('sha256').update(hash).update(s.text).digest('hex');
      total += tokensOf(s.text);
      hashes.push(hash);
      tokens.push(total);
    }
    const breakpoints = segments.flatMap((s, i) => (s.breakpoint ? [i] : []));
    const prompt = this.countPrompt ? { prompt: total } : {};
    if (breakpoints.length === 0) return { read: 0, write: 0, ...prompt };
    let entries = this.anthropicEntries.get(model);
    if (!entries) {
      entries = new Set();
      this.anthropicEntries.set(model, entries);
    }
    let read = 0;
    for (const p of breakpoints) {
      for (let q = p; q >= Math.max(0, p - this.lookback); q--) {
        if (entries.has(hashes[q]!)) {
          read = Math.max(read, tokens[q]!);
          break;
        }
      }
    }
    const last = breakpoints[breakpoints.length - 1]!;
    for (const p of breakpoints) if (tokens[p]! >= this.minTokens) entries.add(hashes[p]!);
    const write = tokens[last]! >= this.minTokens ? Math.max(0, tokens[last]! - read) : 0;
    return { read, write, ...prompt };
  }

  private openai(model: string, body: any): CacheUse {
    const prompt = openaiPrompt(body);
    const earlier = this.openaiPrompts.get(model) ?? [];
    let shared = 0;
    for (const before of earlier) shared = Math.max(shared, commonPrefix(before, prompt));
    earlier.push(prompt);
    if (earlier.length > this.openaiKept) earlier.shift();
    this.openaiPrompts.set(model, earlier);
    const tokens = Math.floor(Math.floor(shared / 4) / this.openaiStep) * this.openaiStep;
    return { read: tokens >= this.minTokens ? tokens : 0, write: 0, ...(this.countPrompt ? { prompt: Math.ceil(prompt.length / 4) } : {}) };
  }
}

/** The cacheable blocks of an Anthropic request in the order the API reads them. */
export function anthropicSegments(body: any): Segment[] {
  const out: Segment[] = [];
  const add = (block: any, prefix = '') => {
    const { cache_control, ...rest } = block ?? {};
    out.push({ text: prefix + JSON.stringify(rest), breakpoint: cache_control != null });
  };
  for (const tool of Array.isArray(body?.tools) ? body.tools : []) add(tool);
  const system = body?.system;
  if (typeof system === 'string' && system !== '') add({ type: 'text', text: system }, 'system:');
  else if (Array.isArray(system)) system.forEach((block: any, i: number) => add(block, i === 0 ? 'system:' : ''));
  for (const message of Array.isArray(body?.messages) ? body.messages : []) {
    const blocks = typeof message?.content === 'string' ? [{ type: 'text', text: message.content }] : Array.isArray(message?.content) ? message.content : [];
    blocks.forEach((block: any, i: number) => add(block, i === 0 ? `${String(message.role)}:` : ''));
  }
  return out;
}

/** An OpenAI request's prompt as the model reads it: the tool definitions, then each message, as sent. */
export function openaiPrompt(body: any): string {
  const tools = Array.isArray(body?.tools) ? JSON.stringify(body.tools) : '';
  const messages = Array.isArray(body?.messages) ? body.messages.map((m: unknown) => JSON.stringify(m)).join('\n') : '';
  return `${tools}\n${messages}`;
}

/** How many leading characters two strings share. */
export function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function tokensOf(text: string): number {
  return Math.ceil(text.length / 4);
}
