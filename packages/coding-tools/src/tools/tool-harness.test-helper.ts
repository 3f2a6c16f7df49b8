// Test support for the tool suites: a real sandbox over real temp directories, real baselines,
// and a small child_process CommandRunner. Not part of the public API.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { createPathSandbox, type PathSandbox } from '../sandbox/path-sandbox.js';
import { createFileBaselines } from './file-baselines.js';
import type { CommandRunner, RunCommandOptions, RunCommandResult, AnyTool, FileBaselines, ToolContext } from '@tandem/core';

export interface ToolResult {
  output: string;
  isError: boolean;
  /** The error thrown, when the tool threw. */
  error?: Error;
}

export interface Harness {
  root: TempDir;
  workspace: string;
  home: string;
  dataDir: string;
  /** A directory outside the workspace (not a system directory). */
  outside: string;
  sandbox: PathSandbox;
  baselines: FileBaselines;
  runner: RecordingRunner;
  output: string[];
  ctx(overrides?: Partial<ToolContext>): ToolContext;
  run(tool: AnyTool, args: unknown, overrides?: Partial<ToolContext>): Promise<ToolResult>;
  write(rel: string, content: string | Buffer): Promise<string>;
  read(rel: string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function makeHarness(): Promise<Harness> {
  const root = await makeTempDir('tandem-tools-');
  const workspace = path.join(root.path, 'workspace');
  const home = path.join(root.path, 'home');
  const dataDir = path.join(home, '.tandem');
  const outside = path.join(root.path, 'outside');
  await Promise.all([workspace, home, dataDir, outside].map((d) => fs.mkdir(d, { recursive: true })));
  // Anything that slips through runs against a throwaway home, never the real one.
  const realHome = process.env.HOME;
  process.env.HOME = home;
  const sandbox = createPathSandbox({ workspace, dataDir, home });
  const baselines = createFileBaselines();
  const runner = new RecordingRunner();
  const output: string[] = [];
  const ctx = (overrides: Partial<ToolContext> = {}): ToolContext => ({
    sessionId: 's1',
    callId: 'c1',
    cwd: workspace,
    signal: new AbortController().signal,
    onOutput: (chunk) => output.push(chunk),
    runner,
    paths: sandbox,
    baselines,
    services: {},
    ...overrides,
  });
  return {
    root,
    workspace,
    home,
    dataDir,
    outside,
    sandbox,
    baselines,
    runner,
    output,
    ctx,
    run: (tool, args, overrides) => runTool(tool, args, ctx(overrides)),
    async write(rel, content) {
      const file = path.join(workspace, rel);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, content);
      return file;
    },
    read: (rel) => fs.readFile(path.join(workspace, rel), 'utf8'),
    async cleanup() {
      if (realHome === undefined) delete process.env.HOME;
      else process.env.HOME = realHome;
      await root.cleanup();
    },
  };
}

/** What the agent loop does with a call: validate with the schema, execute, errors become results. */
export async function runTool(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  const parsed = tool.schema.safeParse(args);
  if (!parsed.success) return { output: `invalid arguments: ${parsed.error.message}`, isError: true };
  try {
    const result = await tool.execute(parsed.data, ctx);
    return typeof result === 'string' ? { output: result, isError: false } : { output: result.output, isError: result.isError ?? false };
  } catch (error) {
    return { output: (error as Error).message, isError: true, error: error as Error };
  }
}

/** A real CommandRunner on child_process (bash -c), recording every command it was asked to run. */
export class RecordingRunner implements CommandRunner {
  readonly calls: RunCommandOptions[] = [];

  run(options: RunCommandOptions): Promise<RunCommandResult> {
    this.calls.push(options);
    return new Promise((resolve) => {
      const child = spawn('bash', ['-c', options.command], {
        cwd: options.cwd,
        env: { ...process.env, ...options.env },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      let timedOut = false;
      const onChunk = (data: Buffer) => {
        const text = data.toString('utf8');
        output += text;
        options.onData(text);
      };
      child.stdout.on('data', onChunk);
      child.stderr.on('data', onChunk);
      const kill = () => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, options.timeoutMs);
      options.signal.addEventListener('abort', kill, { once: true });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        options.signal.removeEventListener('abort', kill);
        resolve({ exitCode: code, signal, output, timedOut });
      });
    });
  }
}
