import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CalendarsSettingSchema, isValidZone, WebSearchSettingSchema } from '@tandem/assistant-tools';

/**
 * The server's own limits in `<dataDir>/config.json` (beside the providers part core reads).
 * Every field is optional; a missing one keeps the default of the requirements.
 */
const ms = (min: number, max: number) => z.number().int().min(min).max(max);

export const ServerSettingsShape = {
  /** requirements P2: no answer to a permission question within this is an automatic deny (60 s). */
  permissionTimeoutMs: ms(1_000, 3_600_000),
  /** requirements P5: tool calls per minute per session (30). */
  toolCallsPerMinute: z.number().int().min(1).max(10_000),
  /** requirements P5: the identical call waits this long after the last one (5 s). */
  identicalCallCooldownMs: ms(0, 600_000),
  /**
   * requirements U4: commands that run without a permission question when every segment of a command
   * is one of them (`ls`, `git status`: a command, or a command and its subcommand). Replaces
   * the default list; `[]` makes every command ask. Writing options are never read-only.
   */
  readOnlyCommands: z
    .array(z.string().regex(/^[A-Za-z0-9_.+-]+( [A-Za-z0-9_.+-]+)?$/, 'must be a command name, or a command and a subcommand (e.g. "git status")'))
    .max(500),
  /** requirements A5: iterations per turn (40). */
  maxIterations: z.number().int().min(1).max(1_000),
  /** requirements A5: time per tool call (120 s). */
  toolTimeoutMs: ms(1_000, 3_600_000),
  /** requirements A5: run_command's default timeout (60 s). */
  commandTimeoutMs: ms(1_000, 3_600_000),
  /** The most a run_command call may ask for with timeout_seconds (600 s). */
  maxCommandTimeoutMs: ms(1_000, 86_400_000),
  /**
   * The OS sandbox under every command (bubblewrap): `enabled` (default true), `network`
   * (default true; false cuts commands off the network), `writable` (more directories commands
   * may write, e.g. `"~/.cache"`; credential locations and the data directory stay hidden).
   */
  commandSandbox: z
    .object({
      enabled: z.boolean().optional(),
      network: z.boolean().optional(),
      writable: z.array(z.string().min(1)).max(100).optional(),
    })
    .strict(),
  /**
   * Commands' network and environment (ARCHITECTURE "Checkpoints and a guarded workspace"):
   * `network` `ask` (default; the first connection of a session to a host:port is a permission
   * request) | `allow` | `deny`; `allowHosts` never ask (default: the common package
   * registries; the list replaces the default); `passEnv` names secret-looking variables
   * (KEY, SECRET, TOKEN, PASSWORD in the name) commands may see after all.
   */
  sandbox: z
    .object({
      network: z.enum(['ask', 'allow', 'deny']).optional(),
      allowHosts: z
        .array(z.string().regex(/^(\*\.)?[A-Za-z0-9.:_[\]-]+$/, 'must be a host, *.domain, or host:port'))
        .max(500)
        .optional(),
      passEnv: z
        .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name'))
        .max(200)
        .optional(),
    })
    .strict(),
  /**
   * Checkpoints of the workspace before each turn changes it (undo, diff, rewind): `enabled`
   * (default true), `keepTurns` per session (50), `maxFileBytes` (10 MB: larger files are left out),
   * `watch` (default true: file events say what changed; false scans the workspace at each command).
   */
  checkpoints: z
    .object({
      enabled: z.boolean().optional(),
      watch: z.boolean().optional(),
      keepTurns: z.number().int().min(1).max(10_000).optional(),
      maxFileBytes: z
        .number()
        .int()
        .min(1)
        .max(1024 * 1024 * 1024)
        .optional(),
    })
    .strict(),
  /**
   * web_search backends (`{ backend, url?, apiKeyEnv? }` or a list tried in order when one is
   * rate limited or down); TANDEM_WEB_SEARCH wins. Default DuckDuckGo's HTML endpoint.
   */
  webSearch: WebSearchSettingSchema,
  /** web_fetch: `allowHosts` may resolve to loopback/private addresses (refused otherwise). */
  webFetch: z.object({ allowHosts: z.array(z.string().min(1)).max(100).optional() }).strict(),
  /** get_calendar_events sources: `[{ name, ics: PATH_OR_URL } | { name, caldav: { url, username, passwordEnv } }]`. */
  calendars: CalendarsSettingSchema,
  /** The user's IANA time zone for calendar and routine times (default `TZ`, else the server's zone). */
  timezone: z.string().refine(isValidZone, 'must be an IANA time zone such as "Europe/Berlin"'),
  /** Routines: a run missed while the server was down still runs on start when at most `missedRunGraceMs` late (1 h). */
  routines: z.object({ missedRunGraceMs: ms(0, 7 * 86_400_000).optional() }).strict(),
  /** Agents (issue 13): how many dispatched agents and workers of a session run at once (4), and how long one run may take (30 min). */
  agents: z
    .object({
      concurrency: z.number().int().min(1).max(32).optional(),
      timeLimitMs: ms(1_000, 86_400_000).optional(),
      /**
       * Self-evolution (agents with `evolve: true`): how often reflections may run (12 h), the
       * weighted score that triggers one (5), and its caps: skills changed (3) and tokens (24k) per run.
       */
      reflection: z
        .object({
          intervalSeconds: z
            .number()
            .int()
            .min(60)
            .max(30 * 86_400)
            .optional(),
          threshold: z.number().positive().max(1_000).optional(),
          maxSkillsPerRun: z.number().int().min(0).max(10).optional(),
          maxTokensPerRun: z.number().int().min(1_000).max(1_000_000).optional(),
          maxOutputTokens: z.number().int().min(256).max(32_000).optional(),
        })
        .strict()
        .optional(),
    })
    .strict(),
  /** The whatsapp_* tools' bridge: the name of an MCP server (mcp.json) with send_message, list_messages, list_chats. */
  whatsapp: z.object({ mcpServer: z.string().min(1) }).strict(),
  /** Extra environment for run_command (e.g. `{ "NODE_ENV": "development" }`). */
  commandEnv: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name'), z.string()),
  /**
   * requirements H5: an OpenAI-compatible /v1/embeddings endpoint (OpenAI, Ollama, llama.cpp) for hybrid
   * memory recall. Without it, recall is BM25 alone and says so. The key is read from the
   * environment variable named by `apiKeyEnv`, never from this file.
   */
  embeddings: z.object({
    model: z.string().min(1),
    baseURL: z.string().url().optional(),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name')
      .optional(),
    dimensions: z.number().int().min(1).max(65_536).optional(),
  }),
} as const;

export type ServerSettings = { -readonly [K in keyof typeof ServerSettingsShape]?: z.output<(typeof ServerSettingsShape)[K]> };

export interface LoadedSettings {
  settings: ServerSettings;
  /** One readable sentence per field that was ignored (bad value) or a file that could not be read. */
  warnings: string[];
}

/**
 * Reads the server settings from config.json. Each field is checked on its own: a bad value is
 * reported (naming the field, what it must be, and that the default applies) and the rest still
 * count, so a typo never keeps the server from starting nor silently loosens another limit.
 */
export function loadServerSettings(dataDir: string): LoadedSettings {
  const path = join(dataDir, 'config.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { settings: {}, warnings: [] };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { settings: {}, warnings: [`${path} is not valid JSON (${(err as Error).message}); using the default limits`] };
  }
  return parseServerSettings(raw, path);
}

export function parseServerSettings(raw: unknown, where = 'config.json'): LoadedSettings {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { settings: {}, warnings: [`${where} must hold a JSON object; using the default limits`] };
  }
  const settings: Record<string, unknown> = {};
  const warnings: string[] = [];
  for (const [key, schema] of Object.entries(ServerSettingsShape)) {
    const value = (raw as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const parsed = (schema as z.ZodType).safeParse(value);
    if (parsed.success) settings[key] = parsed.data;
    else {
      const issue = parsed.error.issues[0];
      const path = issue && issue.path.length > 0 ? `${key}.${issue.path.join('.')}` : key;
      warnings.push(`${where}: ${path}: ${issue?.message ?? 'invalid'} (got ${JSON.stringify(value)}); the default applies until you fix it`);
    }
  }
  return { settings: settings as ServerSettings, warnings };
}
