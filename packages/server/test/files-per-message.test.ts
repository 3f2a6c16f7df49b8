import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { relative, resolve, sep } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTurn, type TurnOptions } from '@tandem/core';
import { fakeModelBed, startTestServer } from './server-harness.js';

/**
 * Files per message: how many distinct source files (`packages/<name>/src`, tests left out) a
 * `session:send` passes through from the socket handler to the provider's HTTP request — the
 * files on the call chain. Three stacks, all taken in this process during a real turn against
 * the scripted model server: the synchronous one from the socket.io handler down to the turn's
 * first await (where the engine is asked for the system prompt); the one where the server hands
 * the turn to the engine (`runTurn`, the awaits back to the turn's pump); and the one at the
 * provider's HTTP request (the openai SDK's, through core's fetch), back to the engine's loop,
 * which runs detached from its consumer behind a queue. Their union is the path;
 * `FILES_PER_MESSAGE=1 npx vitest run packages/server/test/files-per-message.test.ts` prints it
 * with the hops between files. The ceiling is today's figure: a change that adds a file to the
 * path raises it on purpose (13 on main before the one owner of a turn, 12 after).
 */
const CEILING = 12;

const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const bed = fakeModelBed();
const realRequest = http.request;

afterEach(() => {
  http.request = realRequest;
});

/** The source files (relative to the repository) of a stack's frames, caller first. */
function sourceFiles(stack: string): string[] {
  const files: string[] = [];
  for (const match of stack.matchAll(/(?:\(|at )(?:file:\/\/)?(\/[^():]+):\d+:\d+\)?/g)) {
    const file = relative(ROOT, match[1]!);
    const parts = file.split(sep);
    if (parts[0] !== 'packages' || parts[2] !== 'src' || /\.test(-helper)?\.ts$/.test(file)) continue;
    files.push(file);
  }
  return files.reverse();
}

describe('files per message', () => {
  it('counts the source files a session:send passes through on its way to the provider', async () => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = Number.POSITIVE_INFINITY;
    try {
      let syncStack: string | undefined;
      let engineStack: string | undefined;
      let providerStack: string | undefined;
      const modelURL = bed.fake.openaiBaseURL;
      // The provider SDKs send through core's own fetch over node:http (providers/http-fetch.ts).
      http.request = ((...args: Parameters<typeof http.request>) => {
        const [target] = args;
        if ((target instanceof URL ? target.href : String(target)).startsWith(modelURL)) providerStack ??= new Error('provider request').stack;
        return realRequest(...args);
      }) as typeof http.request;
      bed.server = await startTestServer({
        env: bed.env(),
        guards: 'off',
        engine: {
          systemPrompt: async () => {
            syncStack ??= new Error('system prompt').stack;
            return 'You are a test assistant.';
          },
          runTurn: (options: TurnOptions) => {
            engineStack ??= new Error('engine turn').stack;
            return runTurn(options);
          },
        },
      });
      const alice = await bed.server.connect('alice');
      const { session } = await alice.ok('session:create', { title: 'files per message' });
      await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
      bed.fake.enqueue({ chunks: ['Hello.'] });
      await alice.ok('session:send', { sessionId: session.id, text: 'hi' });
      await alice.waitFor((e) => e.type === 'turn_done');

      if (process.env.FILES_PER_MESSAGE_RAW) console.log(syncStack, engineStack, providerStack);
      const handlerSide = sourceFiles(syncStack ?? '');
      const engineSide = sourceFiles(engineStack ?? '');
      const providerSide = sourceFiles(providerStack ?? '');
      // Each part must reach its ends, or the figure would be too low without anyone noticing.
      expect(handlerSide[0]).toBe('packages/server/src/handlers/dispatch.ts');
      expect(engineSide.length).toBeGreaterThan(0);
      expect(engineSide.every((f) => f.startsWith('packages/server/src/sessions/'))).toBe(true);
      // By file name, not package: the engine and the providers may move to packages of their own.
      expect(providerSide[0]).toMatch(/\/run-turn\.ts$/);
      expect(providerSide.at(-1)).toMatch(/\/http-fetch\.ts$/);
      const chain = [handlerSide, engineSide, providerSide];
      const path = [...new Set(chain.flat())];
      // Hops: a call from one file into another along each stack (back and forth through lambdas counts each time).
      const hops = chain.reduce((sum, frames) => sum + frames.filter((f, i) => i > 0 && f !== frames[i - 1]).length, 0);
      if (process.env.FILES_PER_MESSAGE) console.log(`files per message: ${path.length} (${hops} hops)\n  ${path.join('\n  ')}`);
      expect(path.length).toBeLessThanOrEqual(CEILING);
    } finally {
      Error.stackTraceLimit = limit;
    }
  });
});
