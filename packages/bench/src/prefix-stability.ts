import { commonPrefix, openaiPrompt, realisticPromptCache, startFakeModelServer } from '@tandem/testkit';
import type { BenchOptions } from './bench-options.js';
import { ScriptedSteps } from './cost-e2e/scripted-steps.js';
import { driveOneTurn } from './serve-e2e/drive-session.js';
import { startServeProcess } from './serve-e2e/serve-process.js';
import { fmt, median } from './stats.js';
import { printTable } from './table.js';

const STEPS_PER_TURN = 10;
const TURNS = 2;

/**
 * "Prefix stability": `tandem serve` runs two turns of ten read steps in one session against the
 * scripted model server in the OpenAI wire format. For each request after the first: the share of
 * its prompt bytes (tool definitions, then the messages, as sent) equal to the previous request's,
 * and whether it extends the previous request whole, as an automatic prefix cache needs. The
 * cached share is what the scripted server, with OpenAI's rules (1,024-token minimum, 128-token
 * steps), reported as `cached_tokens`.
 */
export async function benchPrefixStability(options: BenchOptions): Promise<void> {
  const script = new ScriptedSteps();
  script.steps = STEPS_PER_TURN;
  script.perTurn = true;
  const fake = await startFakeModelServer({ cache: realisticPromptCache() });
  fake.setHandler(script.reply);
  try {
    const server = await startServeProcess({ openaiBaseURL: fake.openaiBaseURL, fromSource: options.fromSource });
    try {
      fake.requests.length = 0;
      await driveOneTurn(server, STEPS_PER_TURN, { turns: TURNS });
    } finally {
      await server.stop();
    }
    const requests = fake.requests.filter((r) => r.format === 'openai' && Array.isArray(r.body?.tools) && r.body.tools.length > 0);
    const prompts = requests.map((r) => openaiPrompt(r.body));
    const shares: number[] = [];
    let extending = 0;
    for (let i = 1; i < prompts.length; i++) {
      const shared = commonPrefix(prompts[i - 1]!, prompts[i]!);
      shares.push(shared / prompts[i]!.length);
      if (shared === prompts[i - 1]!.length) extending++;
    }
    // The first request of the second turn: after the answer and the new user message.
    const boundary = STEPS_PER_TURN + 1;
    const cached = requests.reduce((n, r) => n + (r.usage?.cacheRead ?? 0), 0);
    const prompt = requests.reduce((n, r) => n + (r.usage?.input ?? 0), 0);
    const keys = new Set(requests.map((r) => String(r.body.prompt_cache_key)));
    printTable(
      `Prefix stability: ${TURNS} turns of ${STEPS_PER_TURN} steps in one session, OpenAI wire format; per request after the first, its prompt bytes equal to the previous request's`,
      [
        'agent',
        'requests',
        'extend the previous one',
        'min share',
        'median share',
        'share at the turn boundary',
        'cached share (OpenAI rules)',
        'prompt_cache_key',
      ],
      [
        [
          'tandem serve',
          String(requests.length),
          `${extending} of ${requests.length - 1}`,
          fmt(Math.min(...shares), 3),
          fmt(median(shares), 3),
          fmt(shares[boundary - 1] ?? Number.NaN, 3),
          fmt(cached / prompt, 3),
          keys.size === 1 && !keys.has('undefined') ? 'the session id, on every request' : [...keys].join(', '),
        ],
      ],
    );
    console.log(`goal: every request extends the previous one (${extending === requests.length - 1 ? 'met' : 'NOT met'})`);
  } finally {
    await fake.close();
  }
}
