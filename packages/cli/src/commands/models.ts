import type { ModelInfo } from '@tandem/shared';
import type { ConnectionArgs } from '../connection-args.js';
import { withClient } from './with-client.js';
import { plainTable } from '../plain-table.js';

/** `tandem models`: the server's model catalog (what TANDEM_MODEL / --model may name). */
export async function listModels(args: ConnectionArgs & { json?: boolean | undefined; out?: NodeJS.WritableStream }): Promise<number> {
  const { models } = await withClient(args, 'models', (client) => client.request('models:list', {}));
  const out = args.out ?? process.stdout;
  out.write(args.json ? `${JSON.stringify(models, null, 2)}\n` : formatModelTable(models));
  return 0;
}

export function formatModelTable(models: ModelInfo[]): string {
  if (models.length === 0) return 'the server lists no models\n';
  const rows = [
    ['MODEL', 'CONTEXT', 'TOOLS', 'TIER', 'LABEL'],
    ...models.map((model) => [model.id, `${Math.round(model.contextWindow / 1000)}k`, model.tools ? 'yes' : 'no', model.tier, model.label]),
  ];
  return plainTable(rows);
}
