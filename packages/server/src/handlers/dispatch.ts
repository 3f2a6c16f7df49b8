import type { Socket } from 'socket.io';
import type { Logger } from 'pino';
import { z } from 'zod';
import { ackError, ackOk, Commands, type Ack, type CommandName, type CommandResult } from '@tandem/shared';
import type { ClientIdentity } from '../auth.js';
import { CommandError } from './command-error.js';

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
  isDriver(sessionId: string, socketId: string): boolean;
}

/**
 * Binds every command of the shared `Commands` map on one socket. For each: find the ack
 * (a client may omit it, or send only a callback), validate the payload with the command's
 * zod schema, check who may send it, run the handler, and answer exactly once. Nothing a
 * client sends can throw out of here.
 */
/** Per-socket flood control: a command beyond the budget is answered `rate_limited`. */
export interface CommandLimiter {
  take(): boolean;
  retryAfterMs(): number;
}

export function bindCommands(socket: Socket, handlers: HandlerMap, access: AccessChecks, logger: Logger, limiter?: CommandLimiter): void {
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
  const parsed = command.payload.safeParse(raw);
  if (!parsed.success) return ackError('bad_request', `${name}: ${describeIssues(parsed.error)}`);
  const payload = parsed.data as Record<string, unknown>;
  const client = socket.data as ClientIdentity;
  try {
    if (command.access === 'control' && client.tokenKind !== 'control') {
      return ackError('forbidden', `${name} needs the control token; this connection uses the view token`);
    }
    if (command.access === 'driver') {
      const sessionId = String(payload.sessionId);
      access.requireSession(sessionId);
      if (!access.isDriver(sessionId, socket.id)) {
        return ackError(
          'forbidden',
          client.tokenKind === 'control'
            ? `${name} needs you attached to session ${sessionId} as driver; attach with role 'driver' first`
            : `${name} needs a driver; this connection uses the view token and may only watch`,
        );
      }
    }
    const handler = handlers[name] as Handler<CommandName> | undefined;
    if (!handler) return ackError('internal', `${name} is not available on this server yet`);
    const data = await handler(payload as Payload<CommandName>, { socket, client, afterAck: (fn) => after.push(fn) });
    return ackOk(data);
  } catch (err) {
    if (err instanceof CommandError) return ackError(err.code, err.message);
    logger.error({ err, command: name }, 'command handler failed');
    return ackError('internal', `${name} failed inside the server: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** One readable sentence from zod issues, e.g. `sessionId: expected string, received undefined`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
