import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureProviderTool, listRoutinesTool, whatsappSendTool } from '@tandem/assistant-tools';
import { readSkillTool, type ToolServices } from '@tandem/core';
import { stopJobTool } from '@tandem/coding-tools';
import { makeHarness, type Harness } from '@tandem/coding-tools/testing/tool-harness';

let h: Harness;
beforeEach(async () => {
  h = await makeHarness();
});
afterEach(async () => {
  await h.cleanup();
});

describe('typed tool services', () => {
  it('a tool whose host service is missing fails with a tool error that says what to set up', async () => {
    const cases: Array<[Promise<{ output: string; isError: boolean; error?: Error }>, RegExp]> = [
      [h.run(listRoutinesTool, {}), /^routines are not available in this host \(no scheduler\)/],
      [h.run(configureProviderTool, { provider: 'openai', model: 'openai/gpt-4.1-mini' }), /^this host cannot change providers from the chat/],
      [h.run(whatsappSendTool, { to: '123', text: 'hi' }), /^messaging is not configured: add "whatsapp"/],
      [h.run(readSkillTool, { name: 'x' }), /^skills are not available in this session/],
      [h.run(stopJobTool, { job_id: 'job-1' }), /no job manager/],
    ];
    for (const [result, message] of cases) {
      const r = await result;
      expect(r.isError).toBe(true);
      expect(r.error?.name).toBe('ToolError');
      expect(r.output).toMatch(message);
    }
  });

  it('a provided service is what the tool calls, typed by the folder that declares it', async () => {
    const services: ToolServices = {
      routines: { create: () => Promise.reject(new Error('unused')), list: () => [], cancel: () => Promise.reject(new Error('unused')) },
      providers: { configure: async (change) => `set ${change.provider}` },
    };
    expect((await h.run(listRoutinesTool, {}, { services })).output).toMatch(/no routines/i);
    expect((await h.run(configureProviderTool, { provider: 'openai', model: 'openai/gpt-4.1-mini' }, { services })).output).toBe('set openai');
  });
});
