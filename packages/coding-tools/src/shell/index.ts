export { checkCommandBlacklist, type BlacklistVerdict, type BlacklistOptions } from './command-blacklist.js';
export { splitCommandSegments, lexShell, type ShellSegment, type ShellRedirect } from './shell-lexer.js';
export type { BlacklistCategory } from './blacklist-rules.js';
export { blacklistPatterns } from './blacklist-patterns.js';
