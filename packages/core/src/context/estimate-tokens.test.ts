import { describe, expect, it } from 'vitest';
import { estimateMessageTokens, estimateTextTokens, estimateToolTokens } from './estimate-tokens.js';

/*
 * Reference counts. Where they come from: the samples below were encoded with js-tiktoken
 * 1.0.21 (`getEncoding('cl100k_base')` and `getEncoding('o200k_base')`, the BPE tables OpenAI
 * publishes for GPT-4/GPT-4o), run once outside the repository on 2026-12-02; the package is
 * not a dependency. cl100k is the reference the constants are tuned to; o200k needs ~30 %
 * fewer tokens for Chinese, which per-model calibration (calibration.ts) absorbs.
 */
const ZH =
  '我们的团队正在开发一个新的命令行工具，用来帮助开发者在终端里与人工智能助手协作。这个工具会读取项目中的文件，运行测试，并在修改代码之前征求用户的同意。上周我们讨论了如何保存长期记忆：每次用户开始新的会话时，旧的对话会被总结成几段文字，写入记忆文件，同时在历史文件中追加一条带日期的记录。如果所有模型都失败了，会话不会被清空，用户会看到一条清楚的提示。另外，我们还决定把上下文窗口的使用率显示在状态栏上，当使用率达到百分之八十时自动压缩较早的对话。';
const ZH_CL100K = 224; // o200k_base: 153
const EN =
  'Our team is building a new command-line tool that helps developers work with an AI assistant inside the terminal. The tool reads files in the project, runs the tests, and asks the user for permission before it changes any code. Last week we discussed how to keep long-term memory: whenever the user starts a new session, the old conversation is summarised into a few paragraphs and written to the memory file, while a dated entry is appended to the history file.';
const EN_CL100K = 92;
const JA =
  '私たちのチームは、ターミナルの中でAIアシスタントと一緒に作業するための新しいツールを開発しています。ユーザーが新しいセッションを始めると、古い会話は要約されて記憶ファイルに保存されます。';
const JA_CL100K = 93;
const KO =
  '우리 팀은 터미널에서 AI 도우미와 함께 일할 수 있는 새로운 명령줄 도구를 만들고 있습니다. 사용자가 새 세션을 시작하면 이전 대화가 요약되어 기억 파일에 저장됩니다.';
const KO_CL100K = 79;
const CODE =
  "export function planCompaction(messages: Message[], opts: PlanOptions): CompactionPlan {\n  const total = opts.toolTokens + opts.outputReserve + sum(messages.map((m) => estimate(m)));\n  if (total < opts.windowTokens * 0.8) return { action: 'none' };\n  for (let i = 0; i < messages.length; i++) {\n    if (messages[i]?.role === 'tool') continue;\n  }\n  return { action: 'compact', foldCount: 12 };\n}\n";
const CODE_CL100K = 110;

function within(estimate: number, reference: number, tolerance: number): boolean {
  return Math.abs(estimate - reference) / reference <= tolerance;
}

describe('estimateTextTokens', () => {
  it('counts a Chinese sample within 15 % of its cl100k token count', () => {
    const est = estimateTextTokens(ZH);
    expect(within(est, ZH_CL100K, 0.15), `estimate ${est} vs reference ${ZH_CL100K}`).toBe(true);
  });

  it('does not undercount Chinese the way chars/4 does (requirements C2)', () => {
    const naive = Math.ceil(ZH.length / 4);
    expect(ZH_CL100K / naive).toBeGreaterThan(2); // the problem
    expect(estimateTextTokens(ZH)).toBeGreaterThan(3 * naive); // the fix
  });

  it('keeps English, Japanese, Korean and code within 15 % of cl100k', () => {
    for (const [text, ref] of [
      [EN, EN_CL100K],
      [JA, JA_CL100K],
      [KO, KO_CL100K],
      [CODE, CODE_CL100K],
    ] as const) {
      const est = estimateTextTokens(text);
      expect(within(est, ref, 0.15), `${text.slice(0, 20)}…: estimate ${est} vs ${ref}`).toBe(true);
    }
  });

  it('groups digits by three and handles empty, lone surrogates and emoji without throwing', () => {
    expect(estimateTextTokens('')).toBe(0);
    expect(estimateTextTokens('123456789')).toBe(3);
    expect(estimateTextTokens('\ud800 broken \udfff')).toBeGreaterThan(0);
    expect(estimateTextTokens('🙂🙂')).toBeGreaterThanOrEqual(2);
    expect(estimateTextTokens(undefined as unknown as string)).toBe(0);
    expect(
      estimateMessageTokens({ role: 'assistant', text: 'x', toolCalls: [{ id: 'c', name: 'f', args: undefined, rawArgs: undefined as unknown as string }] }),
    ).toBeGreaterThan(0);
  });

  it('grows linearly: twice the text is about twice the tokens', () => {
    const one = estimateTextTokens(EN);
    const two = estimateTextTokens(`${EN} ${EN}`);
    expect(two).toBeGreaterThanOrEqual(2 * one - 2);
    expect(two).toBeLessThanOrEqual(2 * one + 2);
  });
});

describe('message and tool estimates', () => {
  it('counts tool calls and results, not only text', () => {
    const plain = estimateMessageTokens({ role: 'assistant', text: 'Reading it.', toolCalls: [] });
    const withCall = estimateMessageTokens({
      role: 'assistant',
      text: 'Reading it.',
      toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'src/a.ts' }, rawArgs: '{"path":"src/a.ts"}' }],
    });
    expect(withCall).toBeGreaterThan(plain + 8);
    const result = estimateMessageTokens({ role: 'tool', callId: 'c1', name: 'read_file', output: CODE, isError: false });
    expect(result).toBeGreaterThan(estimateTextTokens(CODE));
  });

  it('counts tool definitions including their JSON schema', () => {
    const small = estimateToolTokens([{ name: 'a', description: 'x', parameters: { type: 'object' } }]);
    const big = estimateToolTokens([
      {
        name: 'read_file',
        description: 'Read a file from the workspace and return its text with line numbers.',
        parameters: {
          type: 'object',
          properties: { path: { type: 'string', description: 'Path relative to the workspace' }, offset: { type: 'integer' } },
          required: ['path'],
        },
      },
    ]);
    expect(big).toBeGreaterThan(small + 20);
  });
});
