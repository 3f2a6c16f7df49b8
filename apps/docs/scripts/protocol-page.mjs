// Generates the wire protocol reference from @tandem/shared's zod schemas.
import { z } from 'zod';

function fieldsOf(schema, omit = []) {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  const props = json.properties ?? {};
  const required = new Set(json.required ?? []);
  return (
    Object.entries(props)
      .filter(([name]) => !omit.includes(name))
      .map(([name, prop]) => `\`${name}${required.has(name) ? '' : '?'}\`: ${describe(prop)}`)
      .join('<br>') || '—'
  );
}

function describe(prop) {
  if (prop.const !== undefined) return `\`${JSON.stringify(prop.const)}\``;
  if (prop.enum) return prop.enum.map((v) => `\`${v}\``).join(' \\| ');
  if (prop.anyOf) return prop.anyOf.map(describe).join(' \\| ');
  if (prop.type === 'array') return `${describe(prop.items ?? {})}[]`;
  if (prop.type === 'object') return 'object';
  return prop.type ?? 'any';
}

export async function protocolReference() {
  const shared = await import('@tandem/shared');
  const lines = [
    '# Wire protocol reference',
    '',
    `Generated from \`@tandem/shared\` (protocol version ${shared.PROTOCOL_VERSION}). The server validates every inbound payload with these schemas.`,
    '',
    '## Handshake',
    '',
    '`io(url, { auth: { token, name, protocolVersion } })`. A wrong or missing token is refused with a `connect_error` whose message is `unauthorized`; a different protocol version with `protocol_mismatch: …`.',
    '',
    '## Acks and error codes',
    '',
    'Every command takes a payload and an ack callback. The ack receives `{ ok: true, data }` or `{ ok: false, error: { code, message } }`.',
    '',
    `Error codes: ${shared.ERROR_CODES.map((c) => `\`${c}\``).join(', ')}.`,
    '',
    'A payload must be a plain JSON object. Anything else — binary data (a `Buffer`, `ArrayBuffer` or typed array, also nested inside the object), an array, a string, a number, a boolean — is answered `bad_request` naming what arrived, e.g. `session:create: expected a JSON object such as {"sessionId": "…"}, got binary data (11 bytes)`; nothing is done. No payload (or `null`, which socket.io sends for an explicit `undefined`) is accepted only where the payload is optional (`session:list`, `models:list`, `server:status`); elsewhere it is `bad_request` (`… needs a payload`). An event name that is no command, sent with an ack, is answered `bad_request`: `unknown command "…"; this server knows: …` listing every command; without an ack it is ignored (logged at debug level).',
    '',
    "Events become visible durable: a persisted event is sent only after its line is written to the session's log, so an event a client has received survives a crash of the server and its `seq` is never given to another event.",
    '',
    '## Commands (client → server)',
    '',
    '| command | who may send it | payload | ack `data` |',
    '|---|---|---|---|',
  ];
  const access = { any: 'any client', control: 'control token', driver: 'attached driver' };
  for (const [name, cmd] of Object.entries(shared.Commands)) {
    lines.push(`| \`${name}\` | ${access[cmd.access]} | ${fieldsOf(cmd.payload)} | ${fieldsOf(cmd.result)} |`);
  }
  lines.push(
    '',
    `## Session events (server → client, event \`${shared.SESSION_EVENT}\`)`,
    '',
    "Every event has `sessionId`, `seq`, `ts` and `type`. Persisted events carry the session's next `seq`; ephemeral ones (streamed text) carry the last persisted seq and `ephemeral: true` and are never replayed — a client attaching mid-stream gets the partial text as one `text_delta`.",
    '',
    '| type | fields |',
    '|---|---|',
  );
  for (const [type, schema] of Object.entries(shared.EventSchemas)) {
    lines.push(`| \`${type}\` | ${fieldsOf(schema, ['sessionId', 'seq', 'ts', 'type', 'ephemeral'])} |`);
  }
  return lines.join('\n') + '\n';
}
