import { hostname, userInfo } from 'node:os';

/** `user@host`, the name other attached clients see; falls back when the user has no passwd entry. */
export function defaultClientName(): string {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    user = process.env.USER ?? process.env.USERNAME ?? 'user';
  }
  return `${user}@${hostname()}`.slice(0, 64);
}
