import { spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { NOTE, NOTE_TEXT } from './scripted-steps.js';

/** The Claude Code release the bench installs (`--claude-code install`); the one measured for the docs. */
export const CLAUDE_CODE_VERSION = '2.1.332';

/**
 * Claude Code's CLI: a path given with `--claude-code PATH`, or with `--claude-code install` the npm
 * package `@anthropic-ai/claude-code` installed once into the user's cache (it is not a dependency
 * of the repository). The package's postinstall puts its native binary in place of `bin/claude.exe`.
 */
export async function claudeCodeCli(option: string): Promise<string> {
  if (option !== 'install') return option;
  const prefix = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'tandem-bench', `claude-code-${CLAUDE_CODE_VERSION}`);
  const bin = join(prefix, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
  if (await exists(bin)) return bin;
  await mkdir(prefix, { recursive: true });
  console.log(`installing @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} into ${prefix} (once)…`);
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefix', prefix, `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`], process.cwd(), process.env);
  if (!(await exists(bin))) throw new Error(`npm installed @anthropic-ai/claude-code but ${bin} is missing`);
  return bin;
}

/**
 * One headless Claude Code turn (`claude -p`) against the scripted model server in its Anthropic
 * wire format: a throwaway HOME and workspace, no traffic to anything but ANTHROPIC_BASE_URL, the
 * Read tool allowed, the same model name Tandem's bench uses. Resolves when the process exits.
 */
export async function runClaudeCode(cli: string, anthropicBaseURL: string, workspace: string): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'tandem-bench-claude-home-'));
  try {
    await run(cli, ['-p', 'go', '--output-format', 'stream-json', '--verbose', '--model', 'claude-sonnet-4-5', '--allowedTools', 'Read'], workspace, {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      ANTHROPIC_BASE_URL: anthropicBaseURL,
      ANTHROPIC_API_KEY: 'sk-ant-bench-0123456789abcdef',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
    });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** A fresh workspace holding the note every agent reads. */
export async function benchWorkspace(prefix: string): Promise<string> {
  const workspace = await mkdtemp(join(tmpdir(), prefix));
  await writeFile(join(workspace, NOTE), NOTE_TEXT);
  return workspace;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args[0] ?? ''} exited ${code}: ${stderr}`))));
  });
}
