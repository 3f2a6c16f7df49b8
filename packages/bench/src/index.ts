#!/usr/bin/env node
// `pnpm bench`: prints tables comparing Tandem against baselines measured in the same run.
// Numbers are informational; nothing here is a pass/fail test.
import { benchAgentDispatch } from './agent-dispatch.js';
import { benchAttachLongSession } from './attach-long-session.js';
import { benchClusterFanOut } from './cluster-fan-out.js';
import { benchFanOut } from './fan-out.js';
import { benchHarnessOverhead } from './harness-overhead.js';
import { benchPtyVsSpawn } from './pty-vs-spawn.js';
import { benchContext, benchMemoryRecall } from './context-and-recall.js';
import { parseBenchArgs } from './bench-options.js';
import { benchRunVsPi } from './run-vs-pi.js';
import { benchServeVsSdk } from './serve-vs-sdk.js';
import { benchCostOfTurn } from './cost-of-turn.js';
import { benchPrefixStability } from './prefix-stability.js';
import { benchThousandViewers } from './thousand-viewers.js';
import { benchFirstScreen } from './first-screen.js';
import { benchCheckpoints } from './checkpoints.js';

const { options, names: only } = parseBenchArgs(process.argv.slice(2));

const benches: Array<[string, () => Promise<void>]> = [
  ['serve vs sdk', () => benchServeVsSdk(options)],
  ['cost of a turn', () => benchCostOfTurn(options)],
  ['prefix stability', () => benchPrefixStability(options)],
  ['1,000 viewers', benchThousandViewers],
  ['first screen', () => benchFirstScreen(options)],
  ['run vs pi', () => benchRunVsPi(options)],
  ['harness overhead', () => benchHarnessOverhead(options)],
  ['fan-out', benchFanOut],
  ['attach long session', benchAttachLongSession],
  ['cluster fan-out', benchClusterFanOut],
  ['agent dispatch', benchAgentDispatch],
  ['pty vs spawn', benchPtyVsSpawn],
  ['context accounting', benchContext],
  ['memory recall', benchMemoryRecall],
  ['checkpoints', benchCheckpoints],
];

for (const [name, bench] of benches) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  try {
    await bench();
  } catch (err) {
    console.error(`bench "${name}" failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}
