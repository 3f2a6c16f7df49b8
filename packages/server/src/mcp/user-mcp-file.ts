import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '@tandem/core';
import { SecretStore } from '../secrets/secret-store.js';
import { parseMcpEntry, USER_MCP_FILE, type McpEntry } from './mcp-config.js';

export interface AddServerInput {
  dataDir: string;
  name: string;
  /** A local server: the command and its arguments. */
  command?: string;
  args?: string[];
  /** A remote server (Streamable HTTP, falling back to SSE). */
  url?: string;
  /** `sse`: a remote server that speaks only the older SSE transport (Claude Code's `--transport sse`). */
  transport?: 'http' | 'sse';
  /** Other fields of the entry as given (`add-json`: danger, tools, timeouts, cwd); never secret values. */
  extra?: Record<string, unknown>;
  /** Values are secrets: kept encrypted in the secret store, referenced as `${secret:…}` in the file. */
  env?: Record<string, string>;
  headers?: Record<string, string>;
}

const SERVER_NAME = /^[A-Za-z0-9_-]{1,40}$/;

/**
 * `tandem mcp add`: writes the server into `<dataDir>/mcp.json` (user scope, needs no approval)
 * with every env/header value moved to the secret store, so the file holds only references.
 * Returns the file written. Throws a readable error (bad name, name taken, neither command nor url).
 */
export function addUserServer(input: AddServerInput): string {
  const { dataDir, name } = input;
  if (!SERVER_NAME.test(name)) throw new Error(`invalid server name "${name}": use letters, digits, _ and - (at most 40)`);
  if (!input.command === !input.url) throw new Error('give either a command (after --) or --url, not both');
  const file = join(dataDir, USER_MCP_FILE);
  const doc = readDoc(file);
  if (doc.mcpServers[name]) throw new Error(`a server named "${name}" is already in ${file}; remove it first with \`tandem mcp remove ${name}\``);
  const store = SecretStore.open(dataDir);
  const seal = (kind: 'env' | 'header', values: Record<string, string> | undefined): Record<string, string> | undefined => {
    if (!values || Object.keys(values).length === 0) return undefined;
    const refs: Record<string, string> = {};
    for (const [key, value] of Object.entries(values)) {
      const secretName = `mcp/${name}/${kind}/${key}`;
      store.set(secretName, value);
      refs[key] = `\${secret:${secretName}}`;
    }
    return refs;
  };
  let entry: McpEntry;
  if (input.url) {
    const headers = seal('header', input.headers);
    entry = { ...input.extra, type: input.transport === 'sse' ? 'sse' : 'http', url: input.url, ...(headers ? { headers } : {}) };
  } else {
    const env = seal('env', input.env);
    entry = { ...input.extra, command: input.command as string, args: input.args ?? [], ...(env ? { env } : {}) };
  }
  doc.mcpServers[name] = entry;
  writeDoc(dataDir, file, doc);
  return file;
}

/**
 * `tandem mcp add-json NAME JSON`: a server given as the JSON of one `mcpServers` entry (as in
 * Claude Code: `{"type":"http","url":…,"headers":…}` or `{"command":…,"args":…,"env":…}`),
 * checked like the files are, then added as \`tandem mcp add\` does (env and header values sealed).
 */
export function addUserServerJson(dataDir: string, name: string, json: string): string {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (err) {
    throw new Error(`the JSON does not parse (${(err as Error).message}); give one server's entry, e.g. '{"type":"http","url":"https://…"}'`);
  }
  const entry = parseMcpEntry(raw);
  if (typeof entry === 'string') throw new Error(`the server's JSON: ${entry}`);
  if ('url' in entry) {
    const { type, url, headers, ...extra } = entry;
    return addUserServer({ dataDir, name, url, transport: type === 'sse' ? 'sse' : 'http', ...(headers ? { headers } : {}), extra });
  }
  const { type: _stdio, command, args, env, ...extra } = entry;
  return addUserServer({ dataDir, name, command, args: args ?? [], ...(env ? { env } : {}), extra });
}

/** `tandem mcp remove`: drops the server from the user file and its secrets from the store. False when it was not there. */
export function removeUserServer(dataDir: string, name: string): boolean {
  const file = join(dataDir, USER_MCP_FILE);
  const doc = readDoc(file);
  if (!doc.mcpServers[name]) return false;
  delete doc.mcpServers[name];
  writeDoc(dataDir, file, doc);
  const store = SecretStore.open(dataDir);
  for (const secret of store.names()) if (secret.startsWith(`mcp/${name}/`)) store.delete(secret);
  return true;
}

interface Doc {
  mcpServers: Record<string, unknown>;
  [other: string]: unknown;
}

function readDoc(file: string): Doc {
  if (!existsSync(file)) return { mcpServers: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message}); fix it by hand first, nothing was changed`);
  }
  const doc = (parsed && typeof parsed === 'object' ? parsed : {}) as Doc;
  if (!doc.mcpServers || typeof doc.mcpServers !== 'object') doc.mcpServers = {};
  return doc;
}

function writeDoc(dataDir: string, file: string, doc: Doc): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileAtomicSync(file, `${JSON.stringify(doc, null, 2)}\n`);
}
