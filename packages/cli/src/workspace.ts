import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The folder a `tandem` run works on: `--cwd DIR` when given (resolved against the current
 * directory), else the current directory. Under `pnpm tandem` the script runs in Tandem's own
 * checkout, so pnpm's INIT_CWD (where the user typed the command) is taken instead.
 * Symlinks are resolved, so two paths to one folder open one session.
 */
export function workspaceDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  const underPnpmScript = env.npm_lifecycle_event === 'tandem' && Boolean(env.INIT_CWD);
  const dir = flag !== undefined ? resolve(cwd, flag) : underPnpmScript ? resolve(env.INIT_CWD!) : cwd;
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new Error(`${flag !== undefined ? '--cwd ' : ''}${dir} does not exist; give a folder that does`);
  }
  if (!isDir) throw new Error(`${flag !== undefined ? '--cwd ' : ''}${dir} is not a folder; give a folder, not a file`);
  return realpathSync(dir);
}

const MODEL_SPEC = /^[a-z][a-z0-9-]*\/\S+$/i;

/** `--model provider/model`, checked for its form (the server checks the provider and model). */
export function parseModelSpec(value: string): string {
  const spec = value.trim();
  if (!MODEL_SPEC.test(spec)) {
    throw new Error(`expected provider/model, e.g. openai/gpt-4.1-mini or anthropic/claude-sonnet-4-5 (\`tandem models\` lists them), got "${value}"`);
  }
  return spec;
}
