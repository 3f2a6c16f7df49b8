import { randomUUID } from 'node:crypto';
import { readSkillTool, runHostCall, skillsOf, skillToolName, type AnyTool, type ExternalRunContext } from '@tandem/core';
import { skillCommandTool } from '@tandem/coding-tools';
import { memorySearchTool, skillsListTool } from './bridge-tools.js';

/** What an external agent may ask over the bridge (the MCP tools `tandem bridge` offers). */
export type BridgeRequest =
  | { tool: 'skills_list' }
  | { tool: 'skill_read'; name: string }
  | { tool: 'skill_run'; name: string; arguments?: string | undefined }
  | { tool: 'connector_call'; server: string; tool_name: string; arguments: Record<string, unknown> }
  | { tool: 'memory_search'; query: string };

export interface BridgeAnswer {
  text: string;
  isError: boolean;
}

/**
 * One external agent's run, as its bridge serves it: each request becomes a host call through
 * the session's pipeline (validation, the blacklist, the permission question, the rate limiter,
 * `tool_call` / `tool_result`, one audit record), made in the run's turn and attributed to the
 * agent — `skill_read` is `read_skill`, `skill_run` is the skill's own `skill__NAME` command
 * tool, `connector_call` asks about the (agent, server) pair.
 */
export class BridgeRun {
  constructor(
    private readonly context: ExternalRunContext,
    private readonly connector: AnyTool,
  ) {}

  get agent(): string {
    return this.context.agent;
  }

  async call(request: BridgeRequest, signal?: AbortSignal): Promise<BridgeAnswer> {
    const { name, args, tools } = this.plan(request);
    const result = await runHostCall({
      turnId: this.context.turnId,
      call: { id: `bridge-${randomUUID()}`, name, args },
      tools,
      environment: this.context.environment,
      signal: signal ? AbortSignal.any([this.context.signal, signal]) : this.context.signal,
      emit: this.context.emit,
      settled: this.context.settled,
    });
    return { text: result.output, isError: result.isError };
  }

  private plan(request: BridgeRequest): { name: string; args: unknown; tools: AnyTool[] } {
    switch (request.tool) {
      case 'skills_list':
        return { name: skillsListTool.name, args: {}, tools: [skillsListTool] };
      case 'skill_read':
        return { name: readSkillTool.name, args: { name: request.name }, tools: [readSkillTool] };
      case 'skill_run': {
        // The skill's own command tool, as a model would call it: the gate sees its full command line.
        const services = this.context.environment.services ?? {};
        const skills = services.skills ? skillsOf(services).current().skills : [];
        const tools = skills.filter((s) => s.command).map((s) => skillCommandTool({ ...s, command: s.command ?? '' }));
        return { name: skillToolName(request.name), args: request.arguments !== undefined ? { arguments: request.arguments } : {}, tools };
      }
      case 'connector_call':
        return {
          name: this.connector.name,
          args: { agent: this.context.agent, server: request.server, tool: request.tool_name, arguments: request.arguments },
          tools: [this.connector],
        };
      case 'memory_search':
        return { name: memorySearchTool.name, args: { query: request.query }, tools: [memorySearchTool] };
    }
  }
}
