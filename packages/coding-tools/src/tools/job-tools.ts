import { z } from 'zod';
import { modelCopyOfOutput } from './command-output.js';
import { jobsOf } from './tool-services.js';
import { defineTool, ToolError } from '@tandem/core';

export const readJobOutputTool = defineTool({
  name: 'read_job_output',
  description: `Reads output of a background job started with run_command (background: true), from a byte offset, and says whether it is still running (or its exit code). Pass the returned next offset to read only what is new.
Prefer read_file on the job's log path to search or page through a large log.`,
  schema: z.object({
    job_id: z.string().min(1),
    offset: z.number().int().min(0).optional().describe('Byte offset into the log (default 0)'),
    max_bytes: z
      .number()
      .int()
      .positive()
      .max(1024 * 1024)
      .optional()
      .describe('Most bytes to return (default: the host decides)'),
  }),
  danger: 'safe',
  readOnly: true,
  kind: 'read',
  summary: (args) => args.job_id,
  async execute(args, ctx) {
    const jobs = jobsOf(ctx.services);
    let result;
    try {
      result = await jobs.read(args.job_id, { offset: args.offset, maxBytes: args.max_bytes });
    } catch (error) {
      throw new ToolError(`cannot read job ${args.job_id}: ${(error as Error).message}`);
    }
    const status = result.running ? 'still running' : `finished, exit code ${result.exitCode ?? 'unknown'}`;
    const body = modelCopyOfOutput(result.output);
    return `${body}${body && !body.endsWith('\n') ? '\n' : ''}[job ${args.job_id}: ${status}; next offset ${result.nextOffset}]`;
  },
});

export const stopJobTool = defineTool({
  name: 'stop_job',
  description:
    'Stops a background job started with run_command (background: true), and everything it started. Use read_job_output first if you still need its output.',
  schema: z.object({ job_id: z.string().min(1) }),
  danger: 'medium',
  readOnly: false,
  kind: 'other',
  summary: (args) => args.job_id,
  async execute(args, ctx) {
    const jobs = jobsOf(ctx.services);
    try {
      await jobs.stop(args.job_id);
    } catch (error) {
      throw new ToolError(`cannot stop job ${args.job_id}: ${(error as Error).message}`);
    }
    return `Stopped job ${args.job_id}.`;
  },
});
