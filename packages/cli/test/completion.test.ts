import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completionScript } from '../src/completion/completion-script.js';
import { buildProgram } from '../src/program.js';
import { runTandem } from './cli-runner.js';

// `tandem completion bash|zsh|fish`: each script parses in its shell (bash -n, zsh -n,
// fish --no-execute) and completes commands and options when the shell runs it; the scripts
// come from commander's tree, so a command added to the program shows up in them by itself.

const dir = mkdtempSync(join(tmpdir(), 'tandem-completion-'));
const scripts: Record<'bash' | 'zsh' | 'fish', string> = { bash: '', zsh: '', fish: '' };

beforeAll(async () => {
  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    const run = await runTandem(['completion', shell]);
    expect(run.code, run.stderr).toBe(0);
    scripts[shell] = join(dir, `tandem.${shell}`);
    writeFileSync(scripts[shell], run.stdout);
  }
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function shell(file: string, args: string[]): string {
  try {
    return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`the completion tests need ${file} on PATH (apt-get install ${file}; .ci/run installs it)`);
    throw err;
  }
}

/** What bash completes for the words typed (the last one is being completed). */
function bashComplete(words: string[]): string[] {
  const line = `source ${scripts.bash}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _tandem_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return shell('bash', ['-c', line]).split('\n').filter(Boolean);
}

describe('tandem completion', () => {
  it('each script parses in its shell', () => {
    shell('bash', ['-n', scripts.bash]);
    shell('zsh', ['-n', scripts.zsh]);
    shell('fish', ['--no-execute', scripts.fish]);
  });

  it('bash completes commands, subcommands and options, skipping option values', () => {
    expect(bashComplete(['tandem', 'ex'])).toEqual(['export']);
    expect(bashComplete(['tandem', 'mcp', 'a'])).toContain('add');
    expect(bashComplete(['tandem', '--cwd', '/tmp', 'att'])).toEqual(['attach']);
    expect(bashComplete(['tandem', 'attach', '--u'])).toEqual(['--url']);
    expect(bashComplete(['tandem', '--co'])).toEqual(['--continue']);
  });

  it('zsh knows each command with its description', () => {
    const out = shell('zsh', ['-c', `compdef() { :; }; source ${scripts.zsh}; _tandem_node 'mcp'; print -l -- $subs; _tandem_node ''; print -l -- $opts`]);
    expect(out).toMatch(/^add:add a user MCP server/m);
    expect(out).toMatch(/^--continue:open this folder's most recently used session/m);
  });

  it('fish completes commands and options', () => {
    const out = shell('fish', ['-c', `source ${scripts.fish}; complete --do-complete 'tandem mc'; complete --do-complete 'tandem export --fo'`]);
    expect(out).toMatch(/^mcp\t/m);
    expect(out).toMatch(/^--format\t/m);
  });

  it('a command added to the program appears in every script by itself', () => {
    const program = buildProgram({ done: () => undefined });
    program.command('frobnicate').description('a command added later').option('--level <n>', 'how much');
    for (const kind of ['bash', 'zsh', 'fish'] as const) {
      const script = completionScript(program, kind);
      expect(script, kind).toContain('frobnicate');
      expect(script, kind).toContain(kind === 'fish' ? "-l 'level'" : '--level');
    }
  });
});
