import type { z } from 'zod';

/** A zod failure as one line the model can act on, e.g. `path: expected string, received number`. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(arguments)';
      return `${where}: ${issue.message.replace(/^Invalid input:\s*/i, '')}`;
    })
    .join('; ');
}

/** The first part of a long string, for quoting bad input back to the model. */
export function excerpt(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
