import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionEvent } from '@tandem/shared';
import { TandemClient } from '@tandem/tui';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeadlessCli, runCli } from './headless-cli.js';
import { type ServerFixture, startServerFixture } from './server-fixture.js';

// `tandem run` / `tandem -p` end to end: the built CLI, no terminal, against a real server whose
// model is the scripted fake (ARCHITECTURE, Entrances).

let fixture: ServerFixture;
const env = (): NodeJS.ProcessEnv => ({ NO_COLOR: '1' });
const connection = () => ['--url', fixture.server.url, '--token', fixture.tokens.control, '--cwd', fixture.project.path, '--data-dir', fixture.dataDir.path];
const run = (args: string[], input?: string | Buffer) =>
  runCli(['run', ...connection(), ...args], { env: env(), cwd: fixture.project.path, ...(input !== undefined ? { input } : {}) });

beforeAll(async () => {
  fixture = await startServerFixture('run', {}, { anthropic: true });
});
afterAll(async () => {
  await fixture?.close();
});

/** The last user message the scripted model received. */
function lastUserText(): string {
  const request = fixture.fake.requests.at(-1)!;
  const messages = request.body.messages as Array<{ role: string; content: unknown }>;
  const user = messages.filter((m) => m.role === 'user').at(-1)!;
  return typeof user.content === 'string' ? user.content : JSON.stringify(user.content);
}

async function withDriver<T>(work: (client: TandemClient) => Promise<T>): Promise<T> {
  const client = new TandemClient(fixture.server.url, { token: fixture.tokens.control, name: 'alice' });
  try {
    await client.ready();
    return await work(client);
  } finally {
    client.close();
  }
}

describe('tandem run: usage with cache reads, writes and cost', () => {
  it('OpenAI format: the cached part of the prompt and the cost at the catalog price', async () => {
    // gpt-4.1-mini: US$0.4 input, 0.1 cached input, 1.6 output per million tokens.
    fixture.fake.enqueue({ text: 'Cheap.', usage: { input: 2000, output: 10, cacheRead: 1536 } });
    const result = await run(['--output-format', 'json', 'count the cost']);
    expect(result.code).toBe(0);
    const { usage } = JSON.parse(result.stdout);
    expect(usage).toMatchObject({ inputTokens: 2000, outputTokens: 10, cacheReadTokens: 1536, cacheWriteTokens: 0 });
    expect(usage.costUsd).toBeCloseTo((464 * 0.4 + 1536 * 0.1 + 10 * 1.6) / 1e6, 12);
  });

  it('Anthropic format: the first run writes the prompt to the cache, the next run of the session reads it', async () => {
    // No usage scripted: the scripted server's cache simulation reports what Tandem's breakpoints made.
    fixture.fake.enqueue({ text: 'Written.' }, { text: 'Read.' });
    const first = await run(['--model', 'anthropic/claude-sonnet-4-5', '--output-format', 'json', 'cache this']);
    expect(first.code, first.stderr).toBe(0);
    const firstUsage = JSON.parse(first.stdout).usage;
    expect(fixture.fake.requests.some((r) => r.format === 'anthropic' && r.rawBody.includes('cache this'))).toBe(true);
    expect(firstUsage.cacheWriteTokens).toBeGreaterThan(1024);
    expect(firstUsage.cacheReadTokens).toBe(0);
    const second = await run(['--continue', '--output-format', 'json', 'and again']);
    expect(second.code, second.stderr).toBe(0);
    const usage = JSON.parse(second.stdout).usage;
    // Everything the first request wrote (tools, system prompt, the first exchange) is read back.
    expect(usage.cacheReadTokens).toBeGreaterThanOrEqual(firstUsage.cacheWriteTokens);
    expect(usage.inputTokens).toBeGreaterThan(usage.cacheReadTokens + usage.cacheWriteTokens - 1);
    // Sonnet 4.5: US$3 input, 15 output, 0.3 cache read, 3.75 cache write per million tokens.
    const plain = usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens;
    expect(usage.costUsd).toBeCloseTo((plain * 3 + usage.cacheReadTokens * 0.3 + usage.cacheWriteTokens * 3.75 + usage.outputTokens * 15) / 1e6, 12);
  });
});

describe('tandem run: output formats', () => {
  it('text: only the answer on stdout, progress on stderr, exit 0', async () => {
    fixture.fake.enqueue({ text: 'The answer is 42.' });
    const result = await run(['what is the answer?']);
    expect(result.stderr).toContain('session ');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('The answer is 42.\n');
    expect(lastUserText()).toContain('what is the answer?');
  });

  it('json: one result object on stdout', async () => {
    fixture.fake.enqueue({ text: 'Done.', usage: { input: 120, output: 7 } });
    const result = await run(['--output-format', 'json', 'do it']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const object = JSON.parse(lines[0]!);
    expect(object).toMatchObject({ type: 'result', result: 'Done.', isError: false, iterations: 1, usage: { inputTokens: 120, outputTokens: 7 } });
    expect(typeof object.sessionId).toBe('string');
    expect(typeof object.turnId).toBe('string');
    expect(object.durationMs).toBeGreaterThan(0);
  });

  it('stream-json: every event of the run as a wire-shaped line, then the result line', async () => {
    fixture.fake.enqueue({ chunks: ['Stre', 'amed.'] });
    const result = await run(['--output-format', 'stream-json', 'stream it']);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as SessionEvent | { type: 'result'; result: string; turnId: string });
    const types = lines.map((line) => line.type);
    expect(types).toContain('user_message');
    expect(types).toContain('turn_started');
    expect(types).toContain('text_delta');
    expect(types).toContain('assistant_text');
    expect(types.at(-2)).toBe('turn_done');
    const last = lines.at(-1) as { type: string; result: string; turnId: string };
    expect(last).toMatchObject({ type: 'result', result: 'Streamed.' });
    const started = lines.find((line) => line.type === 'turn_started') as { turnId: string; sessionId: string; seq: number };
    expect(started.turnId).toBe(last.turnId);
    expect(typeof started.seq).toBe('number');
  });
});

describe('tandem run: the prompt', () => {
  it('stdin is appended to PROMPT; stdin alone is the prompt', async () => {
    fixture.fake.enqueue({ text: 'Summarised.' }, { text: 'Read it.' });
    const both = await run(['summarise this'], 'line one\nline two\n');
    expect(both.code).toBe(0);
    expect(lastUserText()).toContain('summarise this\n\nline one\nline two');
    const alone = await run([], 'only from stdin');
    expect(alone.code).toBe(0);
    expect(alone.stdout).toBe('Read it.\n');
    expect(lastUserText()).toContain('only from stdin');
  });

  it('`echo … | tandem` without a terminal runs the piped prompt like tandem run; `tandem -p` is tandem run', async () => {
    fixture.fake.enqueue({ text: 'Piped answer.' }, { text: 'Print answer.' });
    const piped = await runCli(['--data-dir', fixture.dataDir.path, '--cwd', fixture.project.path], {
      env: env(),
      cwd: fixture.project.path,
      input: 'hi from a pipe\n',
    });
    expect(piped.stderr).not.toContain('error');
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe('Piped answer.\n');
    expect(lastUserText()).toContain('hi from a pipe');
    const printed = await runCli(['--data-dir', fixture.dataDir.path, '-p', 'print me', '--cwd', fixture.project.path, '--output-format', 'json'], {
      env: env(),
      cwd: fixture.project.path,
    });
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toMatchObject({ type: 'result', result: 'Print answer.' });
    expect(lastUserText()).toContain('print me');
  });
});

describe('tandem without a terminal and without a prompt', () => {
  it('says why there is no TUI and what to do: exit 2', async () => {
    const result = await runCli(['--data-dir', fixture.dataDir.path, '--cwd', fixture.project.path], { env: env(), cwd: fixture.project.path });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('stdin is not a terminal, so there is no TUI to open, and it held no prompt to run');
  });
});

describe('tandem run: bad input is one line and the documented exit status', () => {
  it.each([
    ['a bad output format', ['--output-format', 'xml', 'hi'], undefined, /--output-format takes text, json, stream-json; got "xml"/],
    ['a bad approval mode', ['--approval-mode', 'yolo', 'hi'], undefined, /--approval-mode takes ask, auto-edit, read-only, full-auto/],
    ['a bad iteration limit', ['--max-iterations', '0', 'hi'], undefined, /--max-iterations takes a whole number/],
    ['an unknown flag', ['--frobnicate', 'hi'], undefined, /unknown option '--frobnicate'/],
    ['a model not written provider/model', ['--model', 'gpt4', 'hi'], undefined, /expected provider\/model/],
    ['an unknown session', ['--session', 'nosuchsession', 'hi'], undefined, /no session "nosuchsession"/],
    ['no prompt at all', [], undefined, /no prompt/],
    ['a prompt over the size limit', [], 'x'.repeat(200_001), /more than the 200000/],
    ['stdin that is not text', ['look at this'], Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]), /stdin is not text/],
    ['stdin that is not UTF-8', [], Buffer.from([0xff, 0xfe, 0x41]), /not UTF-8/],
  ])('%s: exit 2', async (_what, args, input, message) => {
    const before = fixture.fake.requests.length;
    const result = await run(args, input);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(fixture.fake.requests.length).toBe(before);
  });

  it('an unreachable server: exit 1 and a sentence', async () => {
    const result = await runCli(['run', '--url', 'http://127.0.0.1:9', '--token', 'x', '--cwd', fixture.project.path, 'hi'], {
      env: env(),
      cwd: fixture.project.path,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('cannot reach a tandem server at http://127.0.0.1:9');
  });
});

describe('tandem run: how a turn ends is its exit status', () => {
  it('a model error: exit 1, the error on stderr, isError in the JSON', async () => {
    fixture.fake.enqueue({ status: 400, errorBody: { error: { message: 'bad request: the scripted model says no', type: 'invalid_request_error' } } });
    const result = await run(['--output-format', 'json', 'fail please']);
    expect(result.code).toBe(1);
    const object = JSON.parse(result.stdout);
    expect(object).toMatchObject({ type: 'result', isError: true, stopReason: 'error' });
    expect(result.stderr).toMatch(/tandem: bad_request: .*HTTP 400/);
  });

  it('--max-iterations caps the turn (per turn, on the wire): exit 1', async () => {
    // One reply: the limit stops the turn before a second model request.
    fixture.fake.enqueue({ toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }] });
    const result = await run(['--max-iterations', '1', '--output-format', 'json', 'read it']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ stopReason: 'max_iterations', iterations: 1 });
    expect(result.stderr).toContain('max_iterations (1) exceeded');
    expect(fixture.fake.pending()).toBe(0);
  });

  it("--continue runs in the folder's most recent session, whose conversation the model sees", async () => {
    fixture.fake.enqueue({ text: 'First: remembered the word kumquat.' }, { text: 'Second.' });
    const first = JSON.parse((await run(['--output-format', 'json', 'remember kumquat'])).stdout);
    const second = await run(['--continue', '--output-format', 'json', 'what was the word?']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).sessionId).toBe(first.sessionId);
    expect(JSON.stringify(fixture.fake.requests.at(-1)!.body.messages)).toContain('remembered the word kumquat');
  });

  it('full-auto runs a command without asking, audited, and puts the session back in ask', async () => {
    fixture.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch made-by-full-auto.txt' } }] }, { text: 'Made it.' });
    const result = await run(['--approval-mode', 'full-auto', '--output-format', 'stream-json', 'make the file']);
    expect(result.code).toBe(0);
    expect(existsSync(join(fixture.project.path, 'made-by-full-auto.txt'))).toBe(true);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; reason?: string; sessionId: string });
    expect(events.some((event) => event.type === 'permission_request')).toBe(false);
    expect(events.find((event) => event.type === 'tool_call')?.reason).toContain('full-auto');
    const sessionId = events.at(-1)!.sessionId;
    await withDriver(async (client) => {
      const { records } = await client.request('audit:query', { sessionId });
      expect(records.find((record) => record.tool === 'run_command')).toMatchObject({ decision: 'full_auto', outcome: 'ok' });
      const { sessions } = await client.request('session:list', {});
      expect(sessions.find((s) => s.id === sessionId)?.mode).toBe('ask');
    });
  });

  /** Answers the headless run's waiting permission request as the driver alice (the run names its session on stderr). */
  async function answerTheRun(cli: HeadlessCli, decision: 'allow_once' | 'deny_once'): Promise<void> {
    const sessionId = /session ([0-9a-f]{8})/.exec(cli.stderr)![1]!;
    await withDriver(async (client) => {
      const { sessions } = await client.request('session:list', {});
      const session = sessions.find((s) => s.id.startsWith(sessionId))!;
      const requests: Array<{ requestId: string }> = [];
      client.subscribe((signal) => {
        if (signal.kind === 'event' && signal.event.type === 'permission_request') requests.push(signal.event);
      });
      await client.attach(session.id, 'driver');
      await client.request('permission:respond', { sessionId: session.id, requestId: requests[0]!.requestId, decision });
    });
  }

  it('ask: a person approves the headless run from a second client; the run waits and finishes', async () => {
    fixture.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch approved-by-alice.txt' } }] }, { text: 'Approved and done.' });
    const cli = new HeadlessCli(['run', ...connection(), 'make the approved file'], { env: env(), cwd: fixture.project.path });
    await cli.waitFor('waiting for permission: run_command touch approved-by-alice.txt');
    await answerTheRun(cli, 'allow_once');
    const result = await cli.output;
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Approved and done.\n');
    expect(result.stderr).toContain('permission allow once by alice');
    expect(existsSync(join(fixture.project.path, 'approved-by-alice.txt'))).toBe(true);
  });

  it('a denied permission: exit 3, the denial named', async () => {
    fixture.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch denied.txt' } }] }, { text: 'I could not.' });
    const cli = new HeadlessCli(['run', ...connection(), '--output-format', 'json', 'make the denied file'], { env: env(), cwd: fixture.project.path });
    await cli.waitFor('waiting for permission');
    await answerTheRun(cli, 'deny_once');
    const result = await cli.output;
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ isError: true, result: 'I could not.', permissionDenials: [{ tool: 'run_command', by: 'alice' }] });
    expect(result.stderr).toContain('run_command was refused by alice');
    expect(existsSync(join(fixture.project.path, 'denied.txt'))).toBe(false);
  });

  it('SIGINT cancels the turn: exit 130', async () => {
    fixture.fake.enqueue({ hang: true });
    const cli = new HeadlessCli(['run', ...connection(), '--output-format', 'stream-json', 'take forever'], { env: env(), cwd: fixture.project.path });
    await cli.waitFor('"type":"turn_started"', 'stdout');
    // Interrupt once the model request is out, or the hanging reply would stay queued for a later turn.
    while (fixture.fake.pending() > 0) await new Promise((resolve) => setImmediate(resolve));
    cli.child.kill('SIGINT');
    const result = await cli.output;
    expect(result.code).toBe(130);
    expect(result.stdout).toContain('"type":"turn_cancelled"');
    expect(JSON.parse(result.stdout.trim().split('\n').at(-1)!)).toMatchObject({ type: 'result', stopReason: 'cancelled', isError: true });
    expect(result.stderr).toContain('the turn was cancelled');
  });
});
