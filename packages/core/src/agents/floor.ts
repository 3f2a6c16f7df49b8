import { COMMANDER } from './agent-file.js';
import { parseAddressing } from './addressing.js';
import { parseHandback } from './handback.js';

/** Who answers one user message, and who holds the floor after it. */
export type Route = { ok: true; agent: string; text: string; floor: string } | { ok: false; message: string };

/**
 * Routes a user message (requirements G4, docs contracts.md, "Agents"): `@NAME …` goes to that agent
 * (the floor stays where it is); `@commander …` goes to the commander and gives it the floor
 * back; a message that names no one goes to the floor holder. `addressable` is who may be
 * named (the commander always may). An empty `text` after `@commander` means only "take the
 * floor back"; after another name it is refused (there is nothing to answer).
 */
export function routeUserMessage(text: string, floor: string, addressable: readonly string[]): Route {
  const address = parseAddressing(text, addressable);
  if (address.kind === 'unknown') return { ok: false, message: address.message };
  if (address.kind === 'floor') return { ok: true, agent: floor, text: address.text, floor };
  if (address.target === COMMANDER) return { ok: true, agent: COMMANDER, text: address.rest, floor: COMMANDER };
  if (address.rest === '') return { ok: false, message: `nothing to send to @${address.target}: write the message after the name` };
  return { ok: true, agent: address.target, text: address.rest, floor };
}

/** An agent's final answer as shown, and the floor after it. */
export interface AnswerOutcome {
  answer: string;
  floor: string;
  /** The floor holder ended with `<handback />`: the floor is the commander's again and it resumes its ledger. */
  handedBack: boolean;
}

/**
 * After `agent` answered: when it holds the floor and its answer ends with a strict
 * `<handback />`, the floor goes back to the commander. A strict marker is removed from any
 * other agent's answer too (it just moves nothing); the commander's answers are never parsed.
 */
export function floorAfterAnswer(floor: string, agent: string, answer: string): AnswerOutcome {
  if (agent === COMMANDER) return { answer, floor, handedBack: false };
  const parsed = parseHandback(answer);
  if (!parsed.handback) return { answer, floor, handedBack: false };
  const holds = agent === floor;
  return { answer: parsed.answer, floor: holds ? COMMANDER : floor, handedBack: holds };
}
