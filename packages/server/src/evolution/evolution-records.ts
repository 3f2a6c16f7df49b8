import { AgentLibrary, EvolutionLog, type EvolutionRecord } from '@tandem/core';
import { InvalidInputError } from '../errors/domain-errors.js';

/** An agent's reflections, oldest first, read from `<data-dir>/agents/NAME/evolution/` (no server needed). */
export function evolutionRecords(dataDir: string, agent: string): EvolutionRecord[] {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(agent)) throw new InvalidInputError(`"${agent}" is not an agent name (a-z, 0-9 and -)`);
  return new EvolutionLog(new AgentLibrary(dataDir, agent).evolutionDir).records();
}
