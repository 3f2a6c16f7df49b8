import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { driverSession, nextEvent, systemOf, toolNames, writeMcpJson } from './mcp-harness.js';
import { fakeModelBed, startTestServer, tempDir } from './server-harness.js';

/** The whatsapp_* tools over a WhatsApp MCP bridge written for the test, through real turns. */
const BRIDGE = fileURLToPath(new URL('./fixtures/whatsapp-bridge-server.mjs', import.meta.url));
const bed = fakeModelBed();

const bridgeLog = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { tool: string; args: Record<string, unknown> })
    : [];

describe('messaging over the WhatsApp bridge', () => {
  it('reads chats without asking, shows the recipient and full text before sending, and sends only when allowed', async () => {
    const dataDir = (await tempDir('tandem-data-')).path;
    const log = join(dataDir, 'bridge.jsonl');
    writeMcpJson(join(dataDir, 'mcp.json'), { whatsapp: { command: process.execPath, args: [BRIDGE], env: { WHATSAPP_LOG: log } } });
    bed.server = await startTestServer({ env: bed.env(), dataDir, settings: { whatsapp: { mcpServer: 'whatsapp' } } });
    const { client, sessionId } = await driverSession(bed.server);
    const send = { name: 'whatsapp_send', args: { to: '4915112345678', text: 'See you at 8!\nI will bring dessert.' } };
    bed.fake.enqueue(
      {
        toolCalls: [
          { name: 'whatsapp_latest', args: {} },
          { name: 'whatsapp_search', args: { query: 'dinner' } },
        ],
      },
      { toolCalls: [send] },
      { text: 'Not sent.' },
      { toolCalls: [send] },
      { text: 'Sent.' },
    );
    await client.ok('session:send', { sessionId, text: 'answer Mia' });
    const request = await nextEvent(client, 'permission_request');
    expect(request.tool).toBe('whatsapp_send');
    expect(request.preview).toBe('To: 4915112345678\n\nSee you at 8!\nI will bring dessert.');
    const reads = client.persisted().filter((e) => e.type === 'tool_result');
    expect(reads.map((e) => e.type === 'tool_result' && [e.tool, e.isError])).toEqual([
      ['whatsapp_latest', false],
      ['whatsapp_search', false],
    ]);
    expect(reads[1]?.type === 'tool_result' && reads[1].output).toContain('Dinner at 8 tonight?');
    await client.ok('permission:respond', { sessionId, requestId: request.requestId, decision: 'deny_once' });
    const done = await nextEvent(client, 'turn_done');
    expect(toolNames(bed.fake.requests[0]!)).toEqual(expect.arrayContaining(['whatsapp_send', 'whatsapp_search', 'whatsapp_latest', 'whatsapp_messages']));
    expect(systemOf(bed.fake.requests[0]!)).not.toMatch(/Not set up here[^\n]*whatsapp_/);
    // The two reads are read-only calls of one reply, so they run at once: either may reach the bridge first.
    const reached = bridgeLog(log).map((c) => c.tool);
    expect(reached.sort()).toEqual(['list_chats', 'list_messages']);

    await client.ok('session:send', { sessionId, text: 'send it after all' });
    const again = await nextEvent(client, 'permission_request', done.seq);
    await client.ok('permission:respond', { sessionId, requestId: again.requestId, decision: 'allow_once' });
    expect(await nextEvent(client, 'tool_result', done.seq)).toMatchObject({
      tool: 'whatsapp_send',
      isError: false,
      output: expect.stringContaining('Message sent to 4915112345678'),
    });
    await nextEvent(client, 'turn_done', done.seq);
    expect(bridgeLog(log).at(-1)).toEqual({ tool: 'send_message', args: { recipient: '4915112345678', message: 'See you at 8!\nI will bring dessert.' } });
  });

  it('does not offer the tools without a bridge, names them in the prompt with how to set them up, and a call says so in one sentence', async () => {
    bed.server = await startTestServer({ env: bed.env() });
    const { client, sessionId } = await driverSession(bed.server);
    bed.fake.enqueue({ toolCalls: [{ name: 'whatsapp_latest', args: {} }] }, { text: 'No bridge.' });
    await client.ok('session:send', { sessionId, text: 'any new messages?' });
    expect(await nextEvent(client, 'tool_result')).toMatchObject({
      isError: true,
      output:
        'messaging is not configured: add "whatsapp": { "mcpServer": "whatsapp" } to config.json and the bridge itself with `tandem mcp add whatsapp -- COMMAND ...`',
    });
    const first = bed.fake.requests[0]!;
    expect(toolNames(first).filter((name) => name.startsWith('whatsapp_'))).toEqual([]);
    expect(toolNames(first)).toContain('read_file');
    expect(systemOf(first)).toContain(
      'Not set up here, so not offered (if the user asks for one, tell them how to set it up): get_calendar_events: add "calendars"',
    );
    expect(systemOf(first)).toContain(
      'whatsapp_send, whatsapp_search, whatsapp_latest, whatsapp_messages: add "whatsapp": { "mcpServer": "whatsapp" } to config.json',
    );
    expect(systemOf(first)).not.toMatch(/Your tools: [^\n]*whatsapp_/);
  });

  it('names a bridge that failed to start and where to look', async () => {
    const dataDir = (await tempDir('tandem-data-')).path;
    writeMcpJson(join(dataDir, 'mcp.json'), { whatsapp: { command: process.execPath, args: ['-e', 'process.exit(3)'] } });
    bed.server = await startTestServer({ env: bed.env(), dataDir, settings: { whatsapp: { mcpServer: 'whatsapp' } } });
    const { client, sessionId } = await driverSession(bed.server);
    bed.fake.enqueue({ toolCalls: [{ name: 'whatsapp_latest', args: {} }] }, { text: 'Bridge down.' });
    await client.ok('session:send', { sessionId, text: 'any new messages?' });
    const result = await nextEvent(client, 'tool_result');
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^the WhatsApp bridge \(MCP server "whatsapp"\) is not available — its status is failed: .+; see `tandem mcp list`$/);
  });
});
