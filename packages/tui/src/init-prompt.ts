/**
 * What `/init` sends: the agent writes AGENTS.md for the project, or improves the one there is.
 * AGENTS.md is what Tandem (and codex, opencode, Cursor…) read as the project's instructions.
 */
export const INIT_PROMPT = [
  'Please write an AGENTS.md file at the root of this workspace: the instructions a coding agent reads before working here.',
  'If AGENTS.md already exists, improve it instead of starting over, and keep what is still true. If there is a CLAUDE.md, .cursorrules, .github/copilot-instructions.md or a README, take what matters from them.',
  'Find out by reading the project (its manifests, scripts, CI configuration, a few central source files), not by guessing. Include:',
  '- how to install, build, lint and test, and how to run a single test;',
  '- the architecture: the big picture that needs several files read to see (how the parts fit, where things live);',
  '- conventions that are not obvious from one file (naming, error handling, how tests are written, what must not be done).',
  'Keep it short and concrete: no generic advice, no list of every file, nothing a glance at the code already tells. Start it with "# AGENTS.md" and one line saying it guides agents working in this repository.',
  'When it is written, say in two or three lines what it covers.',
].join('\n');
