import { connect, type Socket } from 'node:net';

/** Where the bridge is, as Tandem puts it in an external agent's environment. */
export const BRIDGE_VARIABLE = 'TANDEM_BRIDGE';

export interface RelayIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** `SOCKET#TOKEN` → its parts (the token is hex, the path may hold anything but a NUL). */
export function parseBridgeVariable(value: string | undefined): { socket: string; token: string } | undefined {
  if (!value) return undefined;
  const at = value.lastIndexOf('#');
  if (at <= 0) return undefined;
  const token = value.slice(at + 1);
  return /^[0-9a-f]{16,}$/.test(token) ? { socket: value.slice(0, at), token } : undefined;
}

/**
 * `tandem bridge`: an MCP server on stdio for an external agent that Tandem runs. It relays
 * stdin and stdout to the bridge socket of that run (`TANDEM_BRIDGE`), after presenting the
 * run's one-time token; Tandem's server answers the MCP requests with its skills, connectors and
 * memory, through the session's permissions and audit. Resolves with the exit code.
 */
export async function runBridgeRelay(env: NodeJS.ProcessEnv, io: RelayIo): Promise<number> {
  const say = (line: string) => io.stderr.write(`tandem bridge: ${line}\n`);
  const target = parseBridgeVariable(env[BRIDGE_VARIABLE]);
  if (!target) {
    say(
      `${BRIDGE_VARIABLE} is ${env[BRIDGE_VARIABLE] ? 'not of the form SOCKET#TOKEN' : 'not set'}: tandem bridge runs inside an external agent that Tandem started, which gets a bridge for each run`,
    );
    return 2;
  }
  let socket: Socket;
  try {
    socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect(target.socket, () => resolve(s));
      s.once('error', reject);
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    say(
      code === 'ENOENT' || code === 'ECONNREFUSED'
        ? 'the bridge of this run is closed (the run has ended)'
        : `cannot reach the bridge: ${(err as Error).message}`,
    );
    return 1;
  }
  socket.write(`${JSON.stringify({ token: target.token })}\n`);
  const hello = await firstLine(socket);
  let answer: { ok?: boolean; error?: string } = {};
  try {
    answer = JSON.parse(hello.line) as typeof answer;
  } catch {
    // An empty or odd first line is a refusal too.
  }
  if (answer.ok !== true) {
    say(`the bridge refused the connection: ${answer.error ?? 'it closed before answering'}`);
    socket.destroy();
    return 1;
  }
  if (hello.rest.length > 0) io.stdout.write(hello.rest);
  return new Promise<number>((resolve) => {
    socket.on('data', (chunk: Buffer) => io.stdout.write(chunk));
    // Everything read is written out before the process may exit.
    socket.once('close', () => io.stdout.write('', () => resolve(0)));
    socket.on('error', () => undefined);
    io.stdin.on('data', (chunk: Buffer) => socket.write(chunk));
    io.stdin.once('end', () => socket.end());
  });
}

function firstLine(socket: Socket): Promise<{ line: string; rest: Buffer }> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const newline = buffered.indexOf(0x0a);
      if (newline === -1) return;
      done({ line: buffered.subarray(0, newline).toString('utf8'), rest: buffered.subarray(newline + 1) });
    };
    const onClose = () => done({ line: buffered.toString('utf8'), rest: Buffer.alloc(0) });
    const done = (value: { line: string; rest: Buffer }) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve(value);
    };
    socket.on('data', onData);
    socket.once('close', onClose);
  });
}
