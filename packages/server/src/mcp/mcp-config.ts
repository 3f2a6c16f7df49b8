import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { stableJson } from '@tandem/core';

export const PROJECT_MCP_FILE = '.mcp.json';
export const USER_MCP_FILE = 'mcp.json';

export type McpScope = 'project' | 'user';

const danger = z.enum(['safe', 'medium', 'dangerous']);

/** Tandem's own optional fields, beside the common `mcpServers` format. */
const extras = {
  disabled: z.boolean().optional(),
  /** `session`: started when a session of the workspace starts a turn, even if not needed yet. */
  startup: z.enum(['lazy', 'session']).optional(),
  /** Danger of every tool of this server (default medium). */
  danger: danger.optional(),
  /** Per tool (the server's own tool name): `{ "danger": "safe" }`. */
  tools: z.record(z.string(), z.object({ danger: danger.optional() })).optional(),
  startupTimeoutMs: z.number().int().positive().optional(),
  callTimeoutMs: z.number().int().positive().optional(),
};

const stdioEntry = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  ...extras,
});

const httpEntry = z.object({
  type: z.enum(['http', 'streamable-http', 'sse']).optional(),
  url: z.string().min(1),
  headers: z.record(z.string(), z.string()).optional(),
  ...extras,
});

export type StdioEntry = z.infer<typeof stdioEntry>;
export type HttpEntry = z.infer<typeof httpEntry>;
export type McpEntry = StdioEntry | HttpEntry;

/** One configured server, as written (variables not yet expanded). */
export interface McpServerConfig {
  name: string;
  scope: McpScope;
  /** The file it came from. */
  file: string;
  entry: McpEntry;
}

export interface LoadedMcpConfig {
  servers: McpServerConfig[];
  /** Files or entries that could not be read, each a sentence naming the file and what to fix. */
  problems: string[];
}

export function isHttpEntry(entry: McpEntry): entry is HttpEntry {
  return 'url' in entry;
}

/**
 * The servers of a workspace: `<dataDir>/mcp.json` (user) and `<workspace>/.mcp.json`
 * (project), both `{ "mcpServers": { NAME: entry } }`. On a name clash the user's server wins
 * (a project cannot replace a server the user set up) and the clash is reported.
 */
export function loadMcpConfig(dataDir: string, workspace: string): LoadedMcpConfig {
  const problems: string[] = [];
  const user = readMcpFile(join(dataDir, USER_MCP_FILE), 'user', problems);
  const project = readMcpFile(join(workspace, PROJECT_MCP_FILE), 'project', problems);
  const taken = new Set(user.map((s) => s.name));
  for (const server of project) {
    if (taken.has(server.name))
      problems.push(`${server.file}: server "${server.name}" is also in your user config (${join(dataDir, USER_MCP_FILE)}); the user's one is used`);
  }
  return { servers: [...user, ...project.filter((s) => !taken.has(s.name))], problems };
}

export function readMcpFile(file: string, scope: McpScope, problems: string[]): McpServerConfig[] {
  if (!existsSync(file)) return [];
  let parsed: unknown;
  try {
    const text = readFileSync(file, 'utf8');
    // An empty file holds no servers (it is also what a command's sandbox shows while .mcp.json is protected).
    if (text.trim() === '') return [];
    parsed = JSON.parse(text);
  } catch (err) {
    problems.push(`${file} is not valid JSON (${(err as Error).message}); its servers are ignored until it is fixed`);
    return [];
  }
  const servers = (parsed as { mcpServers?: unknown } | null)?.mcpServers;
  if (servers === undefined) return [];
  if (!servers || typeof servers !== 'object' || Array.isArray(servers)) {
    problems.push(`${file}: "mcpServers" must be an object of NAME: { command, args?, env? } or { type: "http", url, headers? }`);
    return [];
  }
  const out: McpServerConfig[] = [];
  for (const [name, raw] of Object.entries(servers)) {
    const entry = parseEntry(raw);
    if (typeof entry === 'string') problems.push(`${file}: server "${name}": ${entry}`);
    else out.push({ name, scope, file, entry });
  }
  return out;
}

function parseEntry(raw: unknown): McpEntry | string {
  if (!raw || typeof raw !== 'object') return 'must be an object';
  const schema = 'url' in raw ? httpEntry : 'command' in raw ? stdioEntry : undefined;
  if (!schema) return 'needs "command" (a local server) or "url" (a remote one)';
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`).join('; ');
  return parsed.data;
}

/** What a driver approves for a project server: the launch as written, env/header names only. */
export function launchShown(server: McpServerConfig): { name: string; command?: string; args?: string[]; url?: string; env?: string[]; headers?: string[] } {
  const { entry } = server;
  if (isHttpEntry(entry)) {
    return { name: server.name, url: entry.url, ...(entry.headers ? { headers: Object.keys(entry.headers) } : {}) };
  }
  return { name: server.name, command: entry.command, args: entry.args ?? [], ...(entry.env ? { env: Object.keys(entry.env) } : {}) };
}

/** A stable hash of the launch (command, args, cwd, url, env and header names, and their written values). */
export function launchFingerprint(server: McpServerConfig): string {
  const { entry } = server;
  const launch = isHttpEntry(entry)
    ? { url: entry.url, headers: entry.headers ?? {} }
    : { command: entry.command, args: entry.args ?? [], env: entry.env ?? {}, cwd: entry.cwd ?? null };
  return createHash('sha256').update(stableJson(launch)).digest('hex');
}
