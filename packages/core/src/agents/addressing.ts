import { COMMANDER } from './agent-file.js';

/** Who a user message is for. */
export type Addressing =
  /** No `@NAME` at the start: the floor holder answers `text`. */
  | { kind: 'floor'; text: string }
  /** `@NAME …`: `target` answers `rest`; `@commander` recalls the commander (it takes the floor back). */
  | { kind: 'agent'; target: string; rest: string }
  /** `@NAME` that is no known agent: say so, listing who is. */
  | { kind: 'unknown'; name: string; message: string };

const ADDRESS = /^\s*@([A-Za-z0-9][A-Za-z0-9-]*)(?=$|[\s,:])[,:]?\s*/;

/**
 * Reads the address at the start of a user message (docs contracts.md, "Agents"): `@NAME` followed
 * by a space, a comma or colon, or the end. Names match case-insensitively; `commander` is
 * always known. A leading `@` that is not a name (`@ home`, `@@x`, an e-mail in prose) is not an
 * address. Pure: `known` is the list of agents that may be addressed.
 */
export function parseAddressing(text: string, known: readonly string[]): Addressing {
  const match = ADDRESS.exec(text);
  if (!match) return { kind: 'floor', text };
  const name = match[1]!.toLowerCase();
  const rest = text.slice(match[0].length).trimEnd();
  if (name === COMMANDER || known.includes(name)) return { kind: 'agent', target: name, rest };
  const names = [COMMANDER, ...known.filter((k) => k !== COMMANDER)];
  return {
    kind: 'unknown',
    name,
    message: `no agent is called "${name}": address one of ${names.map((n) => `@${n}`).join(', ')} (tandem agents lists the definitions)`,
  };
}
