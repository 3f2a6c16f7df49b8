import path from 'node:path';

/**
 * Directories no tool may touch outside the workspace (requirements P4), and no command may chmod or
 * chown (requirements P3). `/opt` is included: it holds installed software, not projects; a workspace
 * that itself lives under one of these (say /opt/src/app) is still usable, because the workspace
 * is checked first. `/home` is not here: other users' homes are refused by the containment rule.
 */
export const SYSTEM_DIRECTORIES: readonly string[] = [
  '/etc',
  '/usr',
  '/boot',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/proc',
  '/sys',
  '/dev',
  '/var',
  '/root',
  '/opt',
  '/srv',
  '/run',
  '/snap',
  '/lost+found',
  // macOS
  '/System',
  '/Library',
  '/Applications',
  '/private/etc',
  '/private/var',
  '/cores',
];

/** Temporary areas inside system directories that hold ordinary user files. */
export const SYSTEM_EXCEPTIONS: readonly string[] = ['/var/tmp', '/var/folders', '/private/var/folders', '/private/var/tmp'];

/** Paths under the home directory that hold credentials; refused always, even when granted. */
export const CREDENTIAL_PATHS: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.azure',
  '.kube',
  '.docker',
  '.netrc',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pypirc',
  '.gem/credentials',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.git-credentials',
  '.password-store',
  '.vault-token',
  '.terraform.d/credentials.tfrc.json',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.config/op',
  '.config/doctl',
  '.config/heroku',
  '.local/share/keyrings',
  'Library/Keychains',
];

const SEP = path.sep.charCodeAt(0);

/**
 * True when `p` is `dir` or inside it (both absolute and normalized). Checked on every path of
 * every call against each protected location, so it builds no string: "starts with `dir` and
 * a separator" is read as "starts with `dir`, and a separator follows".
 */
export function isWithin(p: string, dir: string): boolean {
  if (dir === path.sep || p === dir) return true;
  if (!p.startsWith(dir)) return false;
  return dir.charCodeAt(dir.length - 1) === SEP || p.charCodeAt(dir.length) === SEP;
}

/**
 * macOS and Windows file systems usually ignore case: there `~/.SSH` is `~/.ssh`. The refusal
 * rules compare case-folded there, so a different spelling cannot slip past them.
 */
const CASE_INSENSITIVE = process.platform === 'darwin' || process.platform === 'win32';

/** `isWithin` for the refusal rules: case-insensitive where the file system is. */
export function isWithinProtected(p: string, dir: string, caseInsensitive = CASE_INSENSITIVE): boolean {
  return caseInsensitive ? isWithin(p.toLowerCase(), dir.toLowerCase()) : isWithin(p, dir);
}

/** The system directory `p` falls in, or undefined (temporary exceptions are not system). */
export function systemDirectoryOf(p: string, caseInsensitive = CASE_INSENSITIVE): string | undefined {
  if (SYSTEM_EXCEPTIONS.some((dir) => isWithinProtected(p, dir, caseInsensitive))) return undefined;
  return SYSTEM_DIRECTORIES.find((dir) => isWithinProtected(p, dir, caseInsensitive));
}

/** The credential path (absolute) `p` falls in, or undefined. */
export function credentialPathOf(p: string, home: string, caseInsensitive = CASE_INSENSITIVE): string | undefined {
  return credentialPathIn(p, credentialPathsUnder(home), caseInsensitive);
}

/** Every credential location under `home`, absolute (worth computing once per home directory). */
export function credentialPathsUnder(home: string): string[] {
  return CREDENTIAL_PATHS.map((rel) => path.join(home, rel));
}

/** The credential path of `absolutes` (from `credentialPathsUnder`) that `p` falls in, or undefined. */
export function credentialPathIn(p: string, absolutes: readonly string[], caseInsensitive = CASE_INSENSITIVE): string | undefined {
  return absolutes.find((abs) => isWithinProtected(p, abs, caseInsensitive));
}

/**
 * Locations inside the workspace (and each granted directory) that stay read-only to commands
 * and are refused to file tools unless a driver grants them write for the session: what runs
 * later outside the sandbox (git hooks and config) or widens the agent's own powers (MCP
 * servers, skills, agents). A trailing `/` marks a directory.
 */
export const PROTECTED_WORKSPACE_ENTRIES: readonly string[] = ['.git/hooks/', '.git/config', '.tandem/', '.mcp.json', '.claude/', '.agents/'];

const TOP_LEVEL_PROTECTED = new Set(['.tandem', '.mcp.json', '.claude', '.agents']);

/**
 * The protected location `p` falls in (absolute), for the roots given, or undefined. Besides
 * the top-level entries, inside any `.git` directory its `hooks` and its `config` (also of a
 * submodule under `.git/modules`, and `config.worktree`) count, and so does a `.git` file (the
 * pointer of a worktree or submodule to its repository).
 */
export function protectedLocationOf(p: string, roots: readonly string[], caseInsensitive = CASE_INSENSITIVE): string | undefined {
  for (const root of roots) {
    if (!isWithinProtected(p, root, caseInsensitive) || p.length === root.length) continue;
    const rel = p.slice(root.length + (root.endsWith(path.sep) ? 0 : 1));
    const parts = rel.split(path.sep);
    const names = caseInsensitive ? parts.map((s) => s.toLowerCase()) : parts;
    if (TOP_LEVEL_PROTECTED.has(names[0]!)) return path.join(root, parts[0]!);
    const git = names.indexOf('.git');
    if (git === -1) continue;
    if (git === names.length - 1) return path.join(root, ...parts);
    for (let i = git + 1; i < names.length; i++) {
      const name = names[i]!;
      if (name === 'hooks' || ((name === 'config' || name === 'config.worktree') && i === names.length - 1)) return path.join(root, ...parts.slice(0, i + 1));
    }
  }
  return undefined;
}
