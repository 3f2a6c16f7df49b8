export * from './skill-file.js';
export * from './skill-roots.js';
export * from './discover-skills.js';
export * from './skill-catalog.js';
export * from './skills-prompt.js';
export * from './skill-tool-name.js';
export * from './read-skill-tool.js';
