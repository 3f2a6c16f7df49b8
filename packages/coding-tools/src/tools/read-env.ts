import { z } from 'zod';
import { envOf } from './tool-services.js';
import { looksLikeSecretValue, maskedValue, isSecretName, defineTool } from '@tandem/core';

export const readEnvTool = defineTool({
  name: 'read_env',
  description: `Lists the server's environment variables as NAME=value, sorted, optionally only those whose name contains filter (case-insensitive). Values of secret-looking variables (names with KEY, TOKEN, SECRET, PASSWORD, AUTH, ... or values shaped like API keys, tokens, private keys) are masked: only their length is shown.
Use it to check whether something is configured (e.g. is OPENAI_API_KEY set?); do not try to recover masked values.`,
  schema: z.object({
    filter: z.string().optional().describe('Only variables whose name contains this text'),
  }),
  danger: 'medium',
  readOnly: true,
  kind: 'read',
  summary: (args) => args.filter ?? '',
  async execute(args, ctx) {
    const env = envOf(ctx.services);
    const needle = args.filter?.toLowerCase();
    const names = Object.keys(env)
      .filter((name) => typeof env[name] === 'string' && (!needle || name.toLowerCase().includes(needle)))
      .sort();
    if (names.length === 0) return needle ? `No environment variables contain "${args.filter}".` : 'The environment is empty.';
    return names
      .map((name) => {
        const value = env[name]!;
        const secret = (isSecretName(name) && value.length > 0) || looksLikeSecretValue(value);
        return `${name}=${secret ? maskedValue(value) : value}`;
      })
      .join('\n');
  },
});
