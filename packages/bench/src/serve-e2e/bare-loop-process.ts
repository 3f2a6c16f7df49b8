import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunFigures } from './drive-session.js';
import type { RequestContent } from './scripted-model.js';
import { REPO_ROOT } from './serve-process.js';

/**
 * Runs the bare openai-SDK loop (bare-sdk-loop-main) in its own process for `iterations` tool
 * calls; with `cpuProfDir` the process writes a V8 CPU profile there; `warm` runs one unmeasured
 * loop of the same length first; with `content` it sends that system prompt and those tool
 * definitions instead of its own one-line prompt and one tool; `nodeFlags` go to node first
 * (the server's V8 flags, to tell what they give any process from what Tandem adds).
 */
export async function runBareLoop(
  openaiBaseURL: string,
  iterations: number,
  cpuProfDir?: string,
  warm = false,
  content?: RequestContent,
  nodeFlags: readonly string[] = [],
): Promise<RunFigures> {
  const workspace = await mkdtemp(join(tmpdir(), 'tandem-bench-bare-'));
  await writeFile(join(workspace, 'note.txt'), 'first line\nsecond line\nthird line\n');
  const contentArgs: string[] = [];
  if (content) {
    const file = join(workspace, 'request-content.json');
    await writeFile(file, JSON.stringify(content));
    contentArgs.push(file);
  }
  // Always the compiled file: tsx in the process would add its own memory and CPU to the baseline.
  const entry = [
    ...nodeFlags,
    ...(cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : []),
    join(REPO_ROOT, 'packages/bench/dist/bare-sdk-loop-main.js'),
  ];
  try {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [...entry, openaiBaseURL, String(iterations), workspace, warm ? 'warm' : 'cold', ...contentArgs], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`bare SDK loop exited ${code}: ${stderr.slice(-2000)}`))));
    });
    const figures = JSON.parse(out.trim().split('\n').pop()!) as RunFigures;
    // The loop counts model requests; the last one is the final answer.
    if (figures.iterations < iterations) throw new Error(`bare loop ran ${figures.iterations} of ${iterations} iterations`);
    return figures;
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}
