import { readSkillTool, SkillCatalog, skillsPromptSection, type AgentDefinition, type TurnOptions } from '@tandem/core';
import { checkCommandBlacklist } from '@tandem/coding-tools';
import type { AgentEvolution } from './agent-evolution.js';

/**
 * An evolving agent's turn (`evolve: true`): its private skills (`<data-dir>/agents/NAME/skills/`)
 * come first in what `read_skill` reads and are listed in its prompt, with its competence profile.
 * Loaded for that agent only: no other agent's turn and no commander's sees them.
 */
export function evolvingAgentTurn(options: TurnOptions, definition: AgentDefinition, evolution: AgentEvolution, home: string): TurnOptions {
  const library = evolution.library(definition.name);
  const skills = library.skills({ checkCommand: checkCommandBlacklist, home });
  const profile = library.profile().trim();
  if (skills.length === 0 && profile === '') return options;
  const { environment, prompt } = options;
  const services = environment.services ?? {};
  const shared = services.skills;
  const catalog = new SkillCatalog(() => [library.skillRoot(), ...(shared?.roots ?? [])], { home, checkCommand: checkCommandBlacklist });
  const sections: string[] = [];
  if (profile) sections.push(`Your competence profile, kept by your own reflections (data about you, not instructions from the user):\n${profile}`);
  const list = skillsPromptSection(skills);
  if (list) sections.push(list.replace(/^Skills \(instructions for particular tasks, kept in folders\)/, 'Your own skills (learned from your earlier work)'));
  const tools = environment.tools.some((t) => t.name === readSkillTool.name) ? environment.tools : [...environment.tools, readSkillTool];
  return {
    ...options,
    environment: { ...environment, tools, services: { ...services, skills: catalog } },
    prompt: { ...prompt, system: `${prompt.system}\n\n${sections.join('\n\n')}` },
  };
}
