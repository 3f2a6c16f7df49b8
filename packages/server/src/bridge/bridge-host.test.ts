import { mkdirSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SkillCatalog, type EngineEvent, type ExternalRunContext, type TurnEnvironment } from '@tandem/core';
import { checkCommandBlacklist, createFileBaselines } from '@tandem/coding-tools';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { BridgeHost } from './bridge-host.js';
import { bridgeSocketDir } from './bridge-dir.js';
import { skillsListTool } from './bridge-tools.js';

/** The bridge's socket and token, spoken to with a raw Unix socket (newline-delimited JSON-RPC after the token line). */
let tmp: TempDir;
let events: EngineEvent[];
let context: ExternalRunContext;
let host: BridgeHost;

beforeEach(async () => {
  tmp = await makeTempDir('tandem-bridge-');
  const skills = path.join(tmp.path, 'skills');
  mkdirSync(path.join(skills, 'notes'), { recursive: true });
  writeFileSync(path.join(skills, 'notes', 'SKILL.md'), '---\nname: notes\ndescription: How we write notes.\n---\nbody\n');
  events = [];
  const environment = {
    sessionId: 's1',
    cwd: tmp.path,
    tools: [],
    runner: { run: () => Promise.reject(new Error('no commands here')) },
    paths: { resolve: async (p: string) => p },
    baselines: createFileBaselines(),
    services: { skills: new SkillCatalog([{ dir: skills, label: 'test skills', global: false }], { checkCommand: checkCommandBlacklist }) },
  } as unknown as TurnEnvironment;
  context = { agent: 'helper', turnId: 't1', environment, signal: new AbortController().signal, emit: (e) => events.push(e), settled: async () => {} };
  host = new BridgeHost({ dir: bridgeSocketDir(path.join(tmp.path, 'data')), connector: skillsListTool, version: 'test', logger: pino({ level: 'silent' }) });
});
afterEach(async () => {
  await tmp.cleanup();
});

/** A connection with a line reader. */
async function open(socketPath: string): Promise<{ socket: Socket; line(): Promise<string>; closed: Promise<void> }> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = connect(socketPath, () => resolve(s));
    s.once('error', reject);
  });
  let buffered = '';
  const waiting: Array<(line: string) => void> = [];
  const lines: string[] = [];
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let at = buffered.indexOf('\n'); at !== -1; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, closed, line: () => (lines.length > 0 ? Promise.resolve(lines.shift()!) : new Promise((resolve) => waiting.push(resolve))) };
}

describe('BridgeHost', () => {
  it('serves MCP to a connection that shows the run’s token; each call goes through the pipeline as the agent', async () => {
    const bridge = await host.open(context);
    const [socketPath, token] = bridge.env.TANDEM_BRIDGE!.split('#') as [string, string];
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const c = await open(socketPath);
    // The token line and the first request in one write: nothing after the token is lost.
    c.socket.write(
      `${JSON.stringify({ token })}\n${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    expect(JSON.parse(await c.line())).toEqual({ ok: true });
    expect(JSON.parse(await c.line())).toMatchObject({ id: 1, result: { serverInfo: { name: 'tandem-bridge' } } });
    c.socket.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    c.socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'skills_list', arguments: {} } })}\n`);
    const reply = JSON.parse(await c.line());
    expect(reply).toMatchObject({
      id: 2,
      result: { content: [{ type: 'text', text: expect.stringContaining('- notes (test skills): How we write notes.') }] },
    });
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'tool_result']);
    expect(events[0]).toMatchObject({ tool: 'skills_list', turnId: 't1', danger: 'safe' });

    // The run ends: the open connection is closed, the socket is gone.
    await bridge.close();
    await c.closed;
    await expect(open(socketPath)).rejects.toThrow(/ENOENT/);
  });

  it('refuses a wrong token and a first line that is not a token', async () => {
    const bridge = await host.open(context);
    const [socketPath, token] = bridge.env.TANDEM_BRIDGE!.split('#') as [string, string];
    const wrong = await open(socketPath);
    wrong.socket.write(`${JSON.stringify({ token: token.replace(/^./, token[0] === 'a' ? 'b' : 'a') })}\n`);
    expect(JSON.parse(await wrong.line())).toEqual({ ok: false, error: 'wrong token for this bridge' });
    await wrong.closed;
    const garbage = await open(socketPath);
    garbage.socket.write('hello\n');
    expect(JSON.parse(await garbage.line())).toEqual({ ok: false, error: 'wrong token for this bridge' });
    await garbage.closed;
    // Another run's bridge has another token.
    const other = await host.open(context);
    expect(other.env.TANDEM_BRIDGE).not.toBe(bridge.env.TANDEM_BRIDGE);
    await Promise.all([bridge.close(), other.close()]);
    expect(events).toEqual([]);
  });
});
