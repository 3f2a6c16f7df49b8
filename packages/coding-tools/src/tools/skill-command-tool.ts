import { z } from 'zod';
import { defineTool, RUNS_A_COMMAND, skillCommandLine, skillToolName, type AnyTool, type Skill } from '@tandem/core';
import { runCommandTool } from './run-command.js';

/**
 * A skill with `command:` as a tool `skill__NAME { arguments? }`. It is a command tool: the
 * validated arguments carry the full command line (`command`), so the gate checks the
 * blacklist and asks with the full command, like `run_command`; it then runs through
 * run_command's own path (blacklist again, pty, live output, output shaping) in the skill's folder.
 */
export function skillCommandTool(skill: Skill & { command: string }): AnyTool {
  const command = skill.command;
  const schema = z
    .object({ arguments: z.string().max(4_000).optional() })
    .strict()
    .transform((a) => ({ ...a, command: skillCommandLine(command, a.arguments) }));
  return defineTool({
    name: skillToolName(skill.name),
    description:
      `Runs the "${skill.name}" skill's command in its folder (${skill.dir}): \`${command}\`, with \`arguments\` appended as written. ${skill.description}`.slice(
        0,
        1_500,
      ),
    schema,
    parameters: {
      type: 'object',
      properties: { arguments: { type: 'string', description: 'Appended to the command line as written (the shell parses them)' } },
      additionalProperties: false,
    },
    danger: 'dangerous',
    readOnly: false,
    // The full command line: the blacklist, rules and the question are about it, like run_command's.
    ...RUNS_A_COMMAND,
    async execute(args, ctx) {
      return runCommandTool.execute({ command: args.command }, { ...ctx, cwd: skill.dir });
    },
  });
}
