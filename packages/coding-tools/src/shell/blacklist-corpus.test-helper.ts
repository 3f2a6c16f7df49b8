import { expect } from 'vitest';
import { checkCommandBlacklist, type BlacklistVerdict } from './command-blacklist.js';

/** The corpus tests' world: a home, a workspace inside it. Nothing here runs a command. */
export const HOME = '/home/tester';
export const WORKSPACE = '/home/tester/projects/app';

export const check = (command: string): BlacklistVerdict => checkCommandBlacklist(command, { home: HOME, workspace: WORKSPACE });

/**
 * Refused, with a message that is a clear sentence: it names the category, the pattern and the
 * segment, says why, and that nothing ran. For `unverifiable` refusals the reason must also say
 * what could not be verified and how to write it instead (the part after the `;`).
 */
export function expectRefused(command: string, category?: string): Extract<BlacklistVerdict, { blocked: true }> {
  const verdict = check(command);
  expect(verdict.blocked, `expected refused: ${JSON.stringify(command)}`).toBe(true);
  if (!verdict.blocked) throw new Error('unreachable');
  if (category) expect(verdict.category, command).toBe(category);
  expect(verdict.message, command).toMatch(
    /^Refused by the command blacklist \([a-z_]+: .+\) in `[\s\S]+`: [\s\S]+\. This command cannot be allowed by any permission; nothing was run\./,
  );
  if (verdict.category === 'unverifiable') {
    expect(verdict.message, command).toMatch(/cannot (verify|read|follow|be verified)|only known at run time|too large to check/);
    expect(verdict.message, command).toMatch(/; [a-z]/);
  }
  return verdict;
}

export function expectAllowed(command: string): void {
  expect(check(command), `expected allowed: ${JSON.stringify(command)}`).toEqual({ blocked: false });
}
