import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import { BWRAP, bwrapSkipNotice } from '../src/os-sandbox/sandbox.test-helper.js';
import { fakeModelBed, startTestServer, TOKENS, type TestClient } from './server-harness.js';

/**
 * "A command is never a client of its own server" and "commands reach only the hosts a person
 * allowed", through real turns: the scripted model asks for commands, they run in real
 * bubblewrap behind Tandem's proxy, a real HTTP server on loopback counts what reaches it.
 */
const bed = fakeModelBed({ fakePer: 'file' });
const require = createRequire(import.meta.url);

let target: Server;
let targetPort: number;
let other: Server;
let otherPort: number;
let hits: string[] = [];

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

beforeAll(async () => {
  target = createServer((req, res) => {
    hits.push(`target ${req.url}`);
    res.end('hello from the dev server\n');
  });
  other = createServer((req, res) => {
    hits.push(`other ${req.url}`);
    res.end('hello from the other one\n');
  });
  targetPort = await listen(target);
  otherPort = await listen(other);
});
afterAll(async () => {
  await new Promise<void>((resolve) => target.close(() => resolve()));
  await new Promise<void>((resolve) => other.close(() => resolve()));
});
afterEach(() => {
  hits = [];
});

/** Answers run_command questions with allow_once, and network questions from `answers` in order. */
function answer(client: TestClient, sessionId: string, answers: string[]): SessionEvent[] {
  const asked: SessionEvent[] = [];
  client.socket.on('session:event', (event: SessionEvent) => {
    if (event.type !== 'permission_request') return;
    if (event.tool === 'network') {
      asked.push(event);
      const decision = answers.shift() ?? 'deny_once';
      void client.request('permission:respond', { sessionId, requestId: event.requestId, decision });
    } else void client.request('permission:respond', { sessionId, requestId: event.requestId, decision: 'allow_once' });
  });
  return asked;
}

/** One turn that runs `command`; resolves with its tool result's output. */
async function runTurn(client: TestClient, sessionId: string, command: string): Promise<string> {
  const mark = client.events.at(-1)?.seq ?? 0;
  bed.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command } }] }, { text: 'Done.' });
  await client.ok('session:send', { sessionId, text: `run ${command}` });
  await client.waitFor((e) => e.type === 'turn_done' && e.seq > mark);
  const result = client.events.filter((e) => e.type === 'tool_result' && e.seq > mark).at(-1);
  return result?.type === 'tool_result' ? result.output : '';
}

async function driver(settings: Record<string, unknown> = {}) {
  bed.server = await startTestServer({ env: bed.env(), settings });
  const client = await bed.server.connect('alice');
  const { session } = await client.ok('session:create', {});
  await client.ok('session:attach', { sessionId: session.id, role: 'driver' });
  return { client, session };
}

const curl = (port: number, path = '/') => `curl -sS --max-time 30 http://127.0.0.1:${port}${path}; echo " rc=$?"`;

if (!BWRAP.ok) bwrapSkipNotice('commands and the network through a real turn');

describe.skipIf(!BWRAP.ok)('commands and the network through a real turn', () => {
  it('ask: a deny fails fast and nothing arrives; allow for the session reaches the host, and is not asked again', async () => {
    const { client, session } = await driver();
    expect(session.sandbox).toBe('bubblewrap (network: ask)');
    const asked = answer(client, session.id, ['deny_once', 'allow_session']);

    const denied = await runTurn(client, session.id, curl(targetPort, '/first'));
    expect(asked).toHaveLength(1);
    const question = asked[0]!;
    expect(question.type === 'permission_request' && question.args).toEqual({ host: '127.0.0.1', port: targetPort, command: curl(targetPort, '/first') });
    expect(question.type === 'permission_request' && question.scopes).toEqual([`127.0.0.1:${targetPort}`, '127.0.0.1:*']);
    expect(denied).toContain(`Tandem refused the connection to 127.0.0.1:${targetPort}`);
    expect(denied).toContain(`[network: 127.0.0.1:${targetPort}: 127.0.0.1:${targetPort} was not allowed`);
    expect(hits).toEqual([]);

    const allowed = await runTurn(client, session.id, curl(targetPort, '/second'));
    expect(allowed).toContain('hello from the dev server');
    expect(asked).toHaveLength(2);
    expect(hits).toEqual(['target /second']);

    const again = await runTurn(client, session.id, curl(targetPort, '/third'));
    expect(again).toContain('hello from the dev server');
    expect(asked).toHaveLength(2);
    expect(hits).toEqual(['target /second', 'target /third']);

    // Another port of the same host is another question (denied by the default answer).
    const elsewhere = await runTurn(client, session.id, curl(otherPort));
    expect(asked).toHaveLength(3);
    expect(elsewhere).toContain('Tandem refused');
    expect(hits).toEqual(['target /second', 'target /third']);

    // Each decision is in the audit log, by whom and how.
    const { records } = await client.ok('audit:query', { sessionId: session.id });
    const network = records.filter((r) => r.tool === 'network');
    expect(network.map((r) => [r.decision, r.outcome])).toEqual([
      ['deny_once', 'denied'],
      ['allow_session', 'ok'],
      ['session_rule', 'ok'],
      ['deny_once', 'denied'],
    ]);
    expect(network[0]!.decidedBy).toBe('alice');
  });

  it('deny refuses what allowHosts does not list, without asking; allow lets everything through', async () => {
    const { client, session } = await driver({ sandbox: { network: 'deny', allowHosts: [`127.0.0.1:${otherPort}`] } });
    expect(session.sandbox).toBe('bubblewrap (network: deny)');
    const asked = answer(client, session.id, []);
    const refused = await runTurn(client, session.id, curl(targetPort));
    expect(refused).toContain('sandbox.network is "deny"');
    const listed = await runTurn(client, session.id, curl(otherPort));
    expect(listed).toContain('hello from the other one');
    expect(asked).toHaveLength(0);
    expect(hits).toEqual(['other /']);
    await bed.server!.stop();
    hits = [];

    const open = await driver({ sandbox: { network: 'allow', allowHosts: [] } });
    const askedOpen = answer(open.client, open.session.id, []);
    expect(await runTurn(open.client, open.session.id, curl(targetPort))).toContain('hello from the dev server');
    expect(askedOpen).toHaveLength(0);
    expect(hits).toEqual(['target /']);
  });

  it('a program that ignores the proxy variables fails fast, with a note saying why', async () => {
    const { client, session } = await driver({ sandbox: { network: 'allow' } });
    answer(client, session.id, []);
    const direct = await runTurn(client, session.id, `curl -sS --noproxy '*' --max-time 30 http://127.0.0.1:${targetPort}/; echo " rc=$?"`);
    expect(direct).toMatch(/Connection refused|Couldn't connect/);
    expect(hits).toEqual([]);
  });
});

describe.skipIf(!BWRAP.ok)('a command is never a client of its own server', () => {
  const saved: Record<string, string | undefined> = {};
  const planted: Record<string, string> = {
    TANDEM_TOKEN: TOKENS.control,
    TANDEM_VIEW_TOKEN: TOKENS.view,
    OPENAI_API_KEY: 'sk-planted-provider-key-0123456789abcdef',
    ANTHROPIC_API_KEY: 'sk-ant-planted-provider-key-0123456789',
    MY_SERVICE_SECRET: 'planted-service-secret-value',
    DEPLOY_PASSWORD: 'planted-deploy-password',
    COPY_OF_THE_CONTROL: `prefix-${TOKENS.control}`,
    NPM_TOKEN_PASSED: 'passed-because-listed',
  };
  beforeAll(() => {
    for (const [name, value] of Object.entries(planted)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('its environment holds no token and no key, only what passEnv lets through; a failure names what was withheld', async () => {
    const { client, session } = await driver({ sandbox: { passEnv: ['NPM_TOKEN_PASSED', 'OPENAI_API_KEY'] } });
    answer(client, session.id, []);
    const dump = await runTurn(client, session.id, 'env; cat /proc/self/environ | tr "\\0" "\\n"');
    for (const [name, value] of Object.entries(planted)) {
      if (name === 'NPM_TOKEN_PASSED') continue;
      expect(dump, name).not.toContain(value);
    }
    expect(dump).not.toContain(TOKENS.control);
    expect(dump).not.toContain(TOKENS.view);
    expect(dump).toContain('NPM_TOKEN_PASSED=passed-because-listed');
    expect(dump).toContain('HTTPS_PROXY=http://127.0.0.1:3128');

    const failing = await runTurn(client, session.id, 'test -n "$MY_SERVICE_SECRET" || { echo "MY_SERVICE_SECRET is not set" >&2; exit 3; }');
    expect(failing).toContain(
      '[MY_SERVICE_SECRET is withheld from commands (its name looks like a secret); add it to sandbox.passEnv in config.json to pass it]',
    );
    const provider = await runTurn(client, session.id, 'test -n "$OPENAI_API_KEY" || { echo "OPENAI_API_KEY missing" >&2; exit 3; }');
    expect(provider).toContain('[OPENAI_API_KEY is withheld from commands: it holds a key or token of the Tandem server itself');
  });

  it('its own server cannot be reached over HTTP or socket.io, even with the token in hand and the network open', async () => {
    const { client, session } = await driver({ sandbox: { network: 'allow' } });
    answer(client, session.id, []);
    const port = Number(new URL(bed.server!.url).port);
    const ioClient = require.resolve('socket.io-client');
    const script = join(bed.server!.workspace.path, 'reach-server.cjs');
    // A prompt-injected command that found the control token somewhere tries every door.
    writeFileSync(
      script,
      `const { io } = require(${JSON.stringify(ioClient)});
const token = process.argv[2];
for (const host of ['127.0.0.1', 'localhost']) {
  const socket = io('http://' + host + ':${port}', { auth: { token }, transports: ['websocket'], reconnection: false, timeout: 5000 });
  socket.on('connect', () => { console.log('SOCKETIO-CONNECTED ' + host); process.exit(0); });
  socket.on('connect_error', (err) => console.log('socket.io to ' + host + ' failed: ' + err.message));
}
`,
    );
    const output = await runTurn(
      client,
      session.id,
      [
        `curl -sS --max-time 20 http://127.0.0.1:${port}/; echo " rc=$?"`,
        `curl -sS --max-time 20 http://localhost:${port}/socket.io/?EIO=4; echo " rc=$?"`,
        `curl -sS --noproxy '*' --max-time 20 http://127.0.0.1:${port}/; echo " rc=$?"`,
        `node reach-server.cjs ${TOKENS.control}; true`,
      ].join('; '),
    );
    expect(output).toContain(`Tandem refused the connection to 127.0.0.1:${port}: it is the port of the Tandem server that runs this command`);
    expect(output).toContain(`Tandem refused the connection to localhost:${port}`);
    expect(output).toContain('socket.io to 127.0.0.1 failed');
    expect(output).not.toContain('SOCKETIO-CONNECTED');
    expect(output).not.toMatch(/tandem server: connect with a tandem client|<html|"sid"/);
    // Nobody but alice ever joined the server.
    const { sessions } = await client.ok('session:list', {});
    expect(sessions.find((s) => s.id === session.id)?.clients).toBe(1);
  });
});
