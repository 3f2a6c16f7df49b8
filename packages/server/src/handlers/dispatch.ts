import type { Socket } from 'socket.io';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { ackError, ackOk, Commands, type Ack, type CommandName, type CommandResult, type Role } from '@tandem/shared';
import type { ClientIdentity } from '../auth.js';
import { wireError } from '../errors/wire-error.js';
import { notAJsonObject } from './payload-shape.js';
import { scopeSessionList, shareRefusal } from './share-access.js';

export type Payload<C extends CommandName> = z.output<(typeof Commands)[C]['payload']>;

export interface CommandContext {
  socket: Socket;
  client: ClientIdentity;
  /**
   * Runs `fn` right after the ack is sent, in the same tick. `session:attach` uses it to join
   * the room only once the replay is on its way, so no live event can overtake it.
   */
  afterAck(fn: () => void): void;
}

export type Handler<C extends CommandName> = (payload: Payload<C>, ctx: CommandContext) => Promise<CommandResult<C>> | CommandResult<C>;

export type HandlerMap = { [C in CommandName]?: Handler<C> };

export interface AccessChecks {
  /** Throws `not_found` when the session does not exist. */
  requireSession(sessionId: string): void;
  /** How the socket is attached to the session (undefined: it is not). */
  attachedRole(sessionId: string, socketId: string): Role | undefined;
  /**
   * In a cluster: answers a command about a session that runs on another node (forwarded to
   * it), or resolves undefined to handle the command here. Absent on a single node.
   */
  route?(name: CommandName, payload: Record<string, unknown>, ctx: CommandContext): Promise<Ack<unknown> | undefined>;
}

/** Per-socket flood control: a command beyond the budget is answered `rate_limited`. */
export interface CommandLimiter {
  take(): boolean;
  retryAfterMs(): number;
}

/**
 * Binds every command of the shared `Commands` map on one socket. For each: find the ack
 * (a client may omit it, or send only a callback), check the payload is a plain JSON object,
 * validate it with the command's zod schema, check who may send it, run the handler, and
 * answer exactly once. An event name that is no command is answered `bad_request` (naming the
 * commands) when it came with an ack, logged otherwise. Nothing a client sends can throw out of here.
 */

export function bindCommands(socket: Socket, handlers: HandlerMap, access: AccessChecks, logger: Logger, limiter?: CommandLimiter): void {
  socket.onAny((name: unknown, ...args: unknown[]) => answerUnknown(socket, name, args, logger, limiter));
  for (const name of Object.keys(Commands) as CommandName[]) {
    socket.on(name, (...args: unknown[]) => {
      const { payload, ack } = splitArgs(args);
      const after: Array<() => void> = [];
      const reply =
        limiter && !limiter.take()
          ? Promise.resolve(ackError('rate_limited', `too many commands from this connection; retry in ${Math.ceil(limiter.retryAfterMs() / 1000)} s`))
          : answer(name, payload, socket, handlers, access, logger, after);
      void reply.then((reply) => {
        try {
          ack?.(reply);
        } catch (err) {
          logger.warn({ err, command: name }, 'ack callback failed');
        }
        if (!reply.ok) return;
        for (const fn of after) {
          try {
            fn();
          } catch (err) {
            logger.error({ err, command: name }, 'after-ack step failed');
          }
        }
      });
    });
  }
}

/**
 * Runs one command as if `socket` had sent it, with every check, then its after-ack steps: a
 * node runs the commands other nodes forward to it this way (`socket` stands for the remote one).
 */
export async function answerCommand(
  name: CommandName,
  payload: unknown,
  socket: Socket,
  handlers: HandlerMap,
  access: AccessChecks,
  logger: Logger,
): Promise<Ack<unknown>> {
  const after: Array<() => void> = [];
  const reply = await answer(name, payload, socket, handlers, access, logger, after);
  if (reply.ok) {
    for (const fn of after) {
      try {
        fn();
      } catch (err) {
        logger.error({ err, command: name }, 'after-ack step failed');
      }
    }
  }
  return reply;
}

function splitArgs(args: unknown[]): { payload: unknown; ack?: (reply: Ack<unknown>) => void } {
  const last = args[args.length - 1];
  if (typeof last === 'function') {
    return { payload: args.length > 1 ? args[0] : undefined, ack: last as (reply: Ack<unknown>) => void };
  }
  return { payload: args[0] };
}

async function answer(
  name: CommandName,
  raw: unknown,
  socket: Socket,
  handlers: HandlerMap,
  access: AccessChecks,
  logger: Logger,
  after: Array<() => void>,
): Promise<Ack<unknown>> {
  const command = Commands[name];
  if (raw === undefined || raw === null) {
    // socket.io sends an explicit `undefined` as null: both mean "no payload", fine where it is optional.
    if (!payloadIsOptional(name)) {
      return ackError(
        'bad_request',
        raw === null
          ? `${name}: expected a JSON object with its fields, got null`
          : `${name} needs a payload: a JSON object with its fields (see the protocol docs)`,
      );
    }
    raw = undefined;
  } else {
    const problem = notAJsonObject(raw);
    if (problem) return ackError('bad_request', `${name}: ${problem}`);
  }
  const parsed = command.payload.safeParse(raw);
  if (!parsed.success) return ackError('bad_request', `${name}: ${describeIssues(parsed.error)}`);
  const payload = parsed.data as Record<string, unknown>;
  const client = socket.data as ClientIdentity;
  try {
    // A share opens one session, and only the commands its rights name (share-access.ts).
    const shareRefused = client.share ? shareRefusal(name, payload, client.share) : undefined;
    if (shareRefused) return ackError('forbidden', shareRefused);
    if (command.access === 'control' && client.tokenKind !== 'control') {
      return ackError('forbidden', `${name} needs the control token; this connection uses the view token`);
    }
    if (access.route) {
      const routed = await access.route(name, payload, { socket, client, afterAck: (fn) => after.push(fn) });
      if (routed) return routed;
    }
    if (command.access === 'driver') {
      const refused = attachRefusal(name, String(payload.sessionId), socket.id, client, access);
      if (refused) return ackError('forbidden', refused);
    }
    const handler = handlers[name] as Handler<CommandName> | undefined;
    if (!handler) return ackError('internal', `${name} is not available on this server yet`);
    const data = await handler(payload as Payload<CommandName>, { socket, client, afterAck: (fn) => after.push(fn) });
    if (client.share && name === 'session:list') {
      const list = data as CommandResult<'session:list'>;
      return ackOk({ sessions: scopeSessionList(list.sessions, client.share) });
    }
    return ackOk(data);
  } catch (err) {
    const refusal = wireError(err);
    if (refusal) return ackError(refusal.code, refusal.message);
    logger.error({ err, command: name }, 'command handler failed');
    return ackError('internal', `${name} failed inside the server: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * A command for an attached driver: the socket must be attached to the session as driver; a
 * share's `approve` (permission:respond) needs it attached in any role, since an approver watches.
 */
function attachRefusal(name: CommandName, sessionId: string, socketId: string, client: ClientIdentity, access: AccessChecks): string | undefined {
  access.requireSession(sessionId);
  const role = access.attachedRole(sessionId, socketId);
  if (client.share && Commands[name].share === 'approve') {
    return role ? undefined : `${name} needs you attached to session ${sessionId}; attach first`;
  }
  if (role === 'driver') return undefined;
  if (client.tokenKind === 'view') return `${name} needs a driver; this connection uses the view token and may only watch`;
  return `${name} needs you attached to session ${sessionId} as driver; attach with role 'driver' first`;
}

const COMMAND_NAMES = new Set<string>(Object.keys(Commands));
const OPTIONAL_PAYLOAD = new Set<string>(Object.keys(Commands).filter((name) => Commands[name as CommandName].payload.safeParse(undefined).success));

function payloadIsOptional(name: CommandName): boolean {
  return OPTIONAL_PAYLOAD.has(name);
}

/** An event that is no command: with an ack it is answered `bad_request` naming the commands; without one it is logged. */
function answerUnknown(socket: Socket, name: unknown, args: unknown[], logger: Logger, limiter?: CommandLimiter): void {
  if (typeof name === 'string' && (COMMAND_NAMES.has(name) || socket.listeners(name).length > 0)) return;
  const { ack } = splitArgs(args);
  const shown = JSON.stringify(String(name)).slice(0, 80);
  if (!ack) {
    logger.debug({ event: String(name).slice(0, 80) }, 'unknown client event without an ack; ignored');
    return;
  }
  const reply =
    limiter && !limiter.take()
      ? ackError('rate_limited', `too many commands from this connection; retry in ${Math.ceil(limiter.retryAfterMs() / 1000)} s`)
      : ackError('bad_request', `unknown command ${shown}; this server knows: ${[...COMMAND_NAMES].sort().join(', ')}`);
  try {
    ack(reply);
  } catch (err) {
    logger.warn({ err }, 'ack callback failed');
  }
}

/** One readable sentence from zod issues, e.g. `sessionId: expected string, received undefined`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
