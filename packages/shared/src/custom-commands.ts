import { z } from 'zod';

/**
 * A custom slash command: a markdown file in `.tandem/commands`, `.claude/commands`,
 * `<data-dir>/commands` or `~/.claude/commands`. `/NAME args` sends `body` with `$ARGUMENTS`
 * (all of args) and `$1`, `$2`… (each word) put in. `status`: `ok`, `shadowed` (an earlier
 * folder has the name), `invalid` (`reason` says why).
 */
export const CustomCommandSchema = z.object({
  name: z.string(),
  description: z.string(),
  argumentHint: z.string().optional(),
  body: z.string(),
  source: z.enum(['project', 'user']),
  file: z.string(),
  status: z.enum(['ok', 'shadowed', 'invalid']),
  reason: z.string().optional(),
});
export type CustomCommand = z.infer<typeof CustomCommandSchema>;
