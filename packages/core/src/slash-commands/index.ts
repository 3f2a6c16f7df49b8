export { parseCommandFile, type CustomCommandFile, type CommandFileParse } from './command-file.js';
export { commandRoots, discoverCustomCommands, type CommandRoot } from './custom-commands.js';
