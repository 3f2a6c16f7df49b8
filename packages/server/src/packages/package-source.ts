import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { InvalidInputError } from '../errors/domain-errors.js';

/** How a package's repository is reached: the contract's allow-list of source protocols. */
export type SourceKind = 'https' | 'ssh' | 'scp' | 'local';

/** A source that passed the allow-list: what git is given (never read by git as an option). */
export interface PackageSource {
  kind: SourceKind;
  /** The address handed to git after `--`: a URL, `git@host:path`, or an absolute path. */
  address: string;
  /** As the user gave it (packages.json `source`). */
  given: string;
}

/** Package names: folder names under `<data-dir>/packages` and keys of packages.json. */
export const PACKAGE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

const HOST = /^[A-Za-z0-9][A-Za-z0-9.-]*$/;
const SCP = /^git@([^:/\s]+):(.+)$/;

/**
 * Checks a package source against the allow-list (ARCHITECTURE "External packages"): an
 * `https://` or `ssh://` URL, `git@host:path`, or a local path to a git repository; anything
 * else (`http://`, `file://`, `ext::`, `git://`, an option-looking word) is refused with what is
 * accepted. Installs fail closed: a host starting with `-` or holding odd characters is refused,
 * and a local path is made absolute, so nothing given here can reach git as an option.
 */
export function parsePackageSource(given: string, cwd: string): PackageSource {
  const source = given.trim();
  const refuse = (why: string): never => {
    throw new InvalidInputError(
      `package source "${given}" is refused: ${why}. Give an https:// or ssh:// URL, git@host:path, or the path of a local git repository`,
    );
  };
  if (source === '') refuse('it is empty');
  if (/[\0\r\n]/.test(source)) refuse('it holds control characters');
  if (/^[a-z][a-z0-9+.-]*::/i.test(source)) refuse('git remote helpers (transport::address) are not allowed');
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(source)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (scheme !== 'https' && scheme !== 'ssh') refuse(`the ${scheme}:// protocol is not on the allow-list`);
    let url: URL;
    try {
      url = new URL(source);
    } catch {
      return refuse('it is not a valid URL');
    }
    if (!HOST.test(url.hostname.replace(/^\[|\]$/g, '')) && !/^\[[0-9a-f:.]+\]$/i.test(url.hostname)) refuse(`the host "${url.hostname}" is not a host name`);
    if (url.pathname === '' || url.pathname === '/') refuse('it names no repository');
    return { kind: scheme === 'https' ? 'https' : 'ssh', address: source, given: source };
  }
  const scp = SCP.exec(source);
  if (scp) {
    const [, host, repo] = scp;
    if (!host || !HOST.test(host)) refuse(`the host "${host ?? ''}" is not a host name`);
    if (!repo || repo.startsWith('-')) refuse('the repository path may not start with -');
    return { kind: 'scp', address: source, given: source };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(source) && !source.startsWith('./') && !path.isAbsolute(source)) {
    refuse('it looks like an address of an unknown protocol');
  }
  // A local path: absolute from here on, so a name like `-x` is a path, never an option.
  const absolute = path.resolve(cwd, source);
  if (!existsSync(absolute) || !statSync(absolute).isDirectory()) refuse(`${absolute} is not a directory`);
  return { kind: 'local', address: absolute, given: absolute };
}

/**
 * The default name of a package: the last part of its source without `.git`, lowercased, with
 * characters outside `a-z 0-9 . _ -` made `-` and leading dots and dashes dropped (so a repository
 * called `-rf` is the package `rf`). Undefined when nothing usable is left: the user then passes `--name`.
 */
export function defaultPackageName(source: PackageSource): string | undefined {
  const tail =
    source.address
      .replace(/[\\/]+$/, '')
      .split(/[\\/:]/)
      .pop() ?? '';
  const name = tail
    .replace(/\.git$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-._]+/, '')
    .replace(/[-._]+$/, '')
    .slice(0, 64);
  return PACKAGE_NAME.test(name) ? name : undefined;
}

/** Throws a clear error for a name that cannot be a package's folder. */
export function checkPackageName(name: string): string {
  if (!PACKAGE_NAME.test(name)) {
    throw new InvalidInputError(`package name "${name}" is not valid: use a-z, 0-9, ., _ and -, starting with a letter or digit (at most 64 characters)`);
  }
  return name;
}
