import { rm } from 'node:fs/promises';
import { type FakeModelServer, type FakeRequest, realisticPromptCache, startFakeModelServer } from '@tandem/testkit';
import type { BenchOptions } from './bench-options.js';
import { benchWorkspace, claudeCodeCli, runClaudeCode } from './cost-e2e/claude-code-process.js';
import { ScriptedSteps } from './cost-e2e/scripted-steps.js';
import { driveOneTurn } from './serve-e2e/drive-session.js';
import { startServeProcess } from './serve-e2e/serve-process.js';
import { fmt } from './stats.js';
import { printTable } from './table.js';

const STEPS = 40;
/** Anthropic's cache rules: a read costs 0.1× an input token, a (5-minute) write 1.25×. */
const CACHE_PRICE = { read: 0.1, write: 1.25 } as const;
/** Claude Sonnet 4.5's input price (US$ per million tokens), to show the figures in money too. */
const SONNET_INPUT_USD = 3;

export interface TurnBill {
  requests: number;
  /** Every prompt token of every request, as if none were cached. */
  uncached: number;
  cacheRead: number;
  cacheWrite: number;
  /** Input tokens billed under the cache rules (reads at 0.1×, writes at 1.25×), in input-token units. */
  billed: number;
}

/** What the model requests of one run would be billed for their input, from what the scripted server reported. */
export function billOf(requests: readonly FakeRequest[]): TurnBill {
  const bill: TurnBill = { requests: 0, uncached: 0, cacheRead: 0, cacheWrite: 0, billed: 0 };
  for (const r of requests) {
    if (!r.usage) continue;
    const { input, cacheRead, cacheWrite } = r.usage;
    bill.requests += 1;
    bill.uncached += input;
    bill.cacheRead += cacheRead;
    bill.cacheWrite += cacheWrite;
    bill.billed += input - cacheRead - cacheWrite + CACHE_PRICE.read * cacheRead + CACHE_PRICE.write * cacheWrite;
  }
  return bill;
}

/** Tandem (`tandem serve` in its own process, one attached client) on Claude Sonnet 4.5, served by the scripted server. */
async function tandemTurn(fake: FakeModelServer, options: BenchOptions): Promise<TurnBill> {
  const server = await startServeProcess({
    openaiBaseURL: fake.openaiBaseURL,
    fromSource: options.fromSource,
    env: { TANDEM_MODEL: 'anthropic/claude-sonnet-4-5', ANTHROPIC_BASE_URL: fake.anthropicBaseURL, ANTHROPIC_API_KEY: 'sk-ant-bench-0123456789abcdef' },
  });
  try {
    fake.requests.length = 0;
    await driveOneTurn(server, STEPS);
    return billOf(fake.requests.filter((r) => r.format === 'anthropic'));
  } finally {
    await server.stop();
  }
}

async function claudeCodeTurn(fake: FakeModelServer, cli: string, script: ScriptedSteps): Promise<TurnBill> {
  const workspace = await benchWorkspace('tandem-bench-claude-ws-');
  script.workspace = workspace;
  try {
    fake.requests.length = 0;
    await runClaudeCode(cli, fake.anthropicBaseURL, workspace);
    const results = fake.requests.filter((r) => r.format === 'anthropic');
    const steps = Math.max(0, ...results.map((r) => countResults(r)));
    if (steps < STEPS) throw new Error(`Claude Code ran ${steps} of ${STEPS} steps`);
    return billOf(results);
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

function countResults(r: FakeRequest): number {
  const messages = (r.body?.messages ?? []) as Array<{ content?: unknown }>;
  return messages.reduce((n, m) => n + (Array.isArray(m.content) ? m.content.filter((b: { type?: string }) => b.type === 'tool_result').length : 0), 0);
}

/**
 * "Cost of a 40-step turn": one turn of 40 read steps against the scripted model server in the
 * Anthropic wire format, with the providers' cache rules (1,024-token minimum, 20-block lookback).
 * Billed input = plain input + 0.1 × cache reads + 1.25 × cache writes, divided by the same
 * requests' input uncached (what every request cost before breakpoints: ratio 1). Claude Code does
 * the same task when `--claude-code PATH|install` is given.
 */
export async function benchCostOfTurn(options: BenchOptions): Promise<void> {
  const script = new ScriptedSteps();
  script.steps = STEPS;
  const fake = await startFakeModelServer({ cache: realisticPromptCache() });
  fake.setHandler(script.reply);
  const rows: string[][] = [];
  const row = (who: string, bill: TurnBill, note = '') => [
    who,
    String(bill.requests),
    fmt(bill.uncached, 0),
    fmt(bill.cacheRead, 0),
    fmt(bill.cacheWrite, 0),
    fmt(bill.billed, 0),
    fmt(bill.billed / bill.uncached, 3),
    `${fmt((bill.uncached * SONNET_INPUT_USD) / 1e6, 3)} → ${fmt((bill.billed * SONNET_INPUT_USD) / 1e6, 3)}`,
    note,
  ];
  try {
    const tandem = await tandemTurn(fake, options);
    rows.push(row('tandem serve (Anthropic, breakpoints)', tandem));
    rows.push(row('the same requests uncached (no breakpoints: Tandem before)', { ...tandem, cacheRead: 0, cacheWrite: 0, billed: tandem.uncached }));
    let claude: TurnBill | undefined;
    if (options.claudeCode) {
      fake.clearCache();
      claude = await claudeCodeTurn(fake, await claudeCodeCli(options.claudeCode), script);
      rows.push(row('Claude Code (claude -p, its own breakpoints)', claude));
    }
    printTable(
      `Cost of a ${STEPS}-step turn: input tokens billed under Anthropic's cache rules (read 0.1×, write 1.25×) / the same input uncached; scripted model server, Anthropic wire format, 1,024-token minimum, 20-block lookback`,
      [
        'agent',
        'requests',
        'input uncached',
        'cache read',
        'cache write',
        'billed (input units)',
        'billed / uncached',
        'input US$ at Sonnet 4.5 (uncached → billed)',
        '',
      ],
      rows,
    );
    const ratio = tandem.billed / tandem.uncached;
    const vsClaude = claude
      ? `; Claude Code ${fmt(claude.billed / claude.uncached, 3)} (goal: Tandem lower); billed input tokens Tandem / Claude Code: ${fmt(tandem.billed / claude.billed, 3)}`
      : '; Claude Code not measured (--claude-code PATH|install)';
    console.log(`goal: billed / uncached ≤ 0.30 — Tandem ${fmt(ratio, 3)}${vsClaude}`);
  } finally {
    await fake.close();
  }
}
