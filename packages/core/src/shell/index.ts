export { checkCommandBlacklist, type BlacklistVerdict, type BlacklistOptions } from './command-blacklist.js';
export { splitCommandSegments, lexShell, type ShellSegment, type ShellRedirect } from './shell-lexer.js';
export { NONINTERACTIVE_ENV } from './noninteractive-env.js';
export { blacklistPatterns, type BlacklistCategory } from './blacklist-rules.js';
