/** Bumped whenever a client built against an older protocol could misread the server. */
export const PROTOCOL_VERSION = 1;
