import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionEvent } from '@tandem/shared';
import type { TestClient, TestServer } from './server-harness.js';

const modules = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/', import.meta.url));

/** The real reference servers from npm, started as `node <pkg>/dist/index.js`. */
export const EVERYTHING = join(modules, 'server-everything/dist/index.js');
export const MEMORY = join(modules, 'server-memory/dist/index.js');
export const FILESYSTEM = join(modules, 'server-filesystem/dist/index.js');
export const CRASH_FIXTURE = fileURLToPath(new URL('./fixtures/mcp-crash-server.mjs', import.meta.url));
export const MARKED_FIXTURE = fileURLToPath(new URL('./fixtures/mcp-marked-server.mjs', import.meta.url));
export const IMAGE_FIXTURE = fileURLToPath(new URL('./fixtures/mcp-image-server.mjs', import.meta.url));

export function writeMcpJson(file: string, servers: Record<string, unknown>): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`);
}

export async function driverSession(s: TestServer, name = 'alice'): Promise<{ client: TestClient; sessionId: string }> {
  const client = await s.connect(name);
  const { session } = await client.ok('session:create', {});
  await client.ok('session:attach', { sessionId: session.id, role: 'driver' });
  return { client, sessionId: session.id };
}

export type EventOf<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>;

export async function nextEvent<T extends SessionEvent['type']>(
  client: TestClient,
  type: T,
  after = 0,
  test: (e: EventOf<T>) => boolean = () => true,
): Promise<EventOf<T>> {
  return (await client.waitFor((e) => e.type === type && e.seq > after && test(e as EventOf<T>))) as EventOf<T>;
}

/** The tool names of one model request the fake model server received. */
export function toolNames(request: { body: { tools?: Array<{ function?: { name: string }; name?: string }> } }): string[] {
  return (request.body.tools ?? []).map((t) => t.function?.name ?? t.name ?? '');
}

export function systemOf(request: { body: { messages?: Array<{ role: string; content: unknown }> } }): string {
  const system = request.body.messages?.find((m) => m.role === 'system' || m.role === 'developer');
  return typeof system?.content === 'string' ? system.content : JSON.stringify(system?.content ?? '');
}

/** Every file under `dir` whose bytes contain `needle` (for "no secret in clear anywhere"). */
export function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const st = statSync(path);
      if (st.isDirectory()) walk(path);
      else if (readFileSync(path).includes(needle)) found.push(path);
    }
  };
  walk(dir);
  return found;
}
