import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelInfo } from '@tandem/shared';
import type { ConnectionArgs } from '../connection-args.js';
import { withClient } from './with-client.js';
import { plainTable } from '../plain-table.js';

/**
 * `tandem models`: the server's model catalog (what TANDEM_MODEL / --model may name), providers
 * of one's own from config.json included. For the local server, a config.json the server cannot
 * use is said on stderr (the server then keeps to the built-in providers).
 */
export async function listModels(
  args: ConnectionArgs & { json?: boolean | undefined; out?: NodeJS.WritableStream; err?: NodeJS.WritableStream },
): Promise<number> {
  const { models } = await withClient(args, 'models', (client) => client.request('models:list', {}));
  const out = args.out ?? process.stdout;
  out.write(args.json ? `${JSON.stringify(models, null, 2)}\n` : formatModelTable(models));
  if (!args.url) {
    const problem = await configProblem(args.dataDir);
    if (problem) (args.err ?? process.stderr).write(`tandem: ${problem}; until it is fixed the server uses the built-in providers only\n`);
  }
  return 0;
}

/** What is wrong with `<data-dir>/config.json`'s providers, if anything. */
async function configProblem(dataDir: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(join(dataDir, 'config.json'), 'utf8');
  } catch {
    return undefined;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return `${join(dataDir, 'config.json')} is not valid JSON (${(err as Error).message})`;
  }
  const { parseProvidersConfig } = await import('@tandem/server');
  const parsed = parseProvidersConfig(raw);
  return parsed.ok ? undefined : parsed.message;
}

export function formatModelTable(models: ModelInfo[]): string {
  if (models.length === 0) return 'the server lists no models\n';
  const rows = [
    ['MODEL', 'CONTEXT', 'TOOLS', 'TIER', 'LABEL'],
    ...models.map((model) => [model.id, `${Math.round(model.contextWindow / 1000)}k`, model.tools ? 'yes' : 'no', model.tier, model.label]),
  ];
  return plainTable(rows);
}
