/**
 * Test fixture run as a child process by memory-store.test.ts: starts the MEMORY.md → HISTORY.md
 * write sequence of a consolidation and stops dead at the requested point, printing where it
 * is, so the parent can SIGKILL it there. Usage: crash-writer.test-helper.ts <dir> <mid-memory|between>
 */
import { MemoryStore } from '../memory-store.js';

const [dir, phase] = process.argv.slice(2) as [string, string];
const hang = () => new Promise<never>(() => undefined);

const store = await MemoryStore.openDir(dir, {
  writeOps: {
    async afterChunk(written, total) {
      if (phase === 'mid-memory' && written < total) {
        process.stdout.write(`paused ${written}/${total}\n`);
        await hang();
      }
    },
  },
});
await store.writeMemory(`# Memory\n\n${'new fact. '.repeat(50_000)}\n`);
if (phase === 'between') {
  process.stdout.write('between\n');
  await hang();
}
await store.appendHistory('[2026-12-02 14:03] crash-writer finished');
process.stdout.write('done\n');
