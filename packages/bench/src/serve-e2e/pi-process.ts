import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, open, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunFigures } from './drive-session.js';
import { procStats, resetPeakRss } from './proc-stats.js';

/** pi's file-reading tool and its arguments (`limit` changes per call, as for Tandem's read_file). */
export const PI_READ_CALL = (i: number) => ({ name: 'read', args: { path: 'note.txt', limit: i + 1 } });

/** One JSON line pi prints in RPC mode: a command's response or an agent event. */
interface PiLine {
  type: string;
  command?: string;
  success?: boolean;
  error?: string;
}

/**
 * The coding agent pi (`@mariozechner/pi-coding-agent`, not a dependency: `--pi PATH` names its
 * CLI) in its own process, as a user runs it headless: `pi --mode rpc` with session files on disk,
 * its default tools, a throwaway HOME and config dir (PI_CODING_AGENT_DIR) whose models.json
 * points a custom openai-completions provider at the scripted model server. Measured like
 * `tandem serve`: after start-up, wall time and the process's CPU (from /proc) cover prompt →
 * agent_end; peak RSS is its VmHWM after the turn (of the measured turn only when `warm`).
 * `warm` first runs one unmeasured prompt of the same length and starts a new session
 * (`new_session`), so the measured turn starts empty too.
 */
export async function runPi(piCli: string, openaiBaseURL: string, iterations: number, warm = false): Promise<RunFigures> {
  const [command, ...prefix] = await piCommand(piCli);
  const root = await mkdtemp(join(tmpdir(), 'tandem-bench-pi-'));
  const agentDir = join(root, 'agent');
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  await Promise.all([mkdir(agentDir), mkdir(home), mkdir(workspace)]);
  await writeFile(join(workspace, 'note.txt'), 'first line\nsecond line\nthird line\n');
  await writeFile(join(agentDir, 'models.json'), JSON.stringify(modelsJson(openaiBaseURL)));
  const child = spawn(command!, [...prefix, '--provider', 'bench', '--model', 'bench-model', '--offline', '--mode', 'rpc'], {
    cwd: workspace,
    env: { ...process.env, HOME: home, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const rpc = new PiRpc(child);
  try {
    await rpc.command({ type: 'get_state' }); // answered once pi has started
    if (warm) {
      await rpc.turn();
      await rpc.command({ type: 'new_session' });
      await resetPeakRss(child.pid!);
    }
    const before = await procStats(child.pid!);
    const started = performance.now();
    const tools = await rpc.turn();
    const ms = performance.now() - started;
    const after = await procStats(child.pid!);
    if (tools < iterations) throw new Error(`pi ran ${tools} of ${iterations} tool calls: ${rpc.stderr.slice(-1000)}`);
    return { ms, cpuMs: after.cpuMs - before.cpuMs, peakRssMb: after.peakRssMb, iterations: tools };
  } finally {
    await rpc.stop();
    await rm(root, { recursive: true, force: true });
  }
}

export function modelsJson(baseUrl: string) {
  return {
    providers: {
      bench: {
        baseUrl,
        api: 'openai-completions',
        apiKey: 'sk-bench-0123456789abcdefghijklmnop',
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        // A large window, so a 200-call turn never compacts.
        models: [{ id: 'bench-model', contextWindow: 1_000_000, maxTokens: 32_000 }],
      },
    },
  };
}

/** A node script (the npm package's bin) runs under this node, so its pid is the process measured. */
export async function piCommand(piCli: string): Promise<string[]> {
  const file = await realpath(piCli).catch(() => {
    throw new Error(`--pi: no such file ${piCli}`);
  });
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(128), 0, 128, 0);
    const firstLine = buffer.subarray(0, bytesRead).toString('latin1').split('\n')[0]!;
    const isNodeScript = /\.[cm]?js$/.test(file) || (firstLine.startsWith('#!') && firstLine.includes('node'));
    return isNodeScript ? [process.execPath, file] : [file];
  } finally {
    await handle.close();
  }
}

/** pi's RPC mode: one JSON object per LF-terminated line each way. */
class PiRpc {
  stderr = '';
  private buffered = '';
  private listeners = new Set<(line: PiLine) => void>();
  private exited: Promise<void>;

  constructor(private readonly child: ChildProcess) {
    child.stdin!.on('error', () => {}); // a write after pi exited: the exit is reported instead
    child.stderr!.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    child.stdout!.on('data', (d: Buffer) => {
      this.buffered += d.toString();
      for (let nl = this.buffered.indexOf('\n'); nl >= 0; nl = this.buffered.indexOf('\n')) {
        const text = this.buffered.slice(0, nl).replace(/\r$/, '');
        this.buffered = this.buffered.slice(nl + 1);
        if (!text.startsWith('{')) continue;
        const line = JSON.parse(text) as PiLine;
        for (const listener of [...this.listeners]) listener(line);
      }
    });
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  /** Sends a command and resolves on its successful response. */
  command(payload: { type: string; message?: string }): Promise<void> {
    return this.until(payload, (line, done, fail) => {
      if (line.type !== 'response' || line.command !== payload.type) return;
      if (line.success) done();
      else fail(new Error(`pi ${payload.type}: ${line.error ?? 'failed'}`));
    });
  }

  /** Sends a prompt and resolves on agent_end with the number of tool calls pi ran. */
  async turn(): Promise<number> {
    let tools = 0;
    await this.until({ type: 'prompt', message: 'go' }, (line, done, fail) => {
      if (line.type === 'tool_execution_end') tools++;
      else if (line.type === 'response' && line.command === 'prompt' && !line.success) fail(new Error(`pi prompt: ${line.error ?? 'failed'}`));
      else if (line.type === 'agent_end') done();
    });
    return tools;
  }

  private until(payload: object, onLine: (line: PiLine, done: () => void, fail: (e: Error) => void) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error('pi: no answer within 10 minutes')), 600_000);
      const exit = () => finish(new Error(`pi exited (${this.child.exitCode}): ${this.stderr.slice(-2000)}`));
      const listener = (line: PiLine) => onLine(line, () => finish(), finish);
      const finish = (error?: Error) => {
        clearTimeout(timer);
        this.listeners.delete(listener);
        this.child.off('exit', exit);
        if (error) reject(error);
        else resolve();
      };
      this.listeners.add(listener);
      this.child.once('exit', exit);
      this.child.stdin!.write(`${JSON.stringify(payload)}\n`);
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.stdin!.end();
      this.child.kill('SIGTERM');
      await this.exited;
    }
  }
}
