// A program embedding a cluster node (createApplication with `cluster`), for embedded-exit.test:
// it starts, listens, waits until the adapter's stream reader is blocked in XREAD, closes, prints
// `closed`, and should then exit by itself.
// Usage: node --import tsx embedded-node-main.ts REDIS_URL DATA_DIR KEY_PREFIX
import { Redis } from 'ioredis';
import { createApplication } from '../../src/index.js';

const [redisUrl, dataDir, keyPrefix] = process.argv.slice(2);
if (!redisUrl || !dataDir || !keyPrefix) {
  console.error('usage: embedded-node-main REDIS_URL DATA_DIR KEY_PREFIX');
  process.exit(2);
}
const app = await createApplication({
  dataDir,
  tokens: { control: 'control-token-embedded', view: 'view-token-embedded' },
  cluster: { redisUrl, nodeId: 'embedded', keyPrefix },
});
await app.listen(0);
const probe = new Redis(redisUrl);
while (!((await probe.client('LIST')) as string).split('\n').some((line) => line.includes('name=tandem-adapter') && line.includes('cmd=xread'))) {
  await new Promise((resolve) => setImmediate(resolve));
}
probe.disconnect();
await app.close();
console.log('closed');
