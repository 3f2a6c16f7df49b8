import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Where a command's git finds the excludes file that hides the placeholders (in the sandbox's private /tmp). */
export const SANDBOX_GIT_EXCLUDES = '/tmp/.tandem-git-excludes';

let userExcludes: string | undefined;

/**
 * The user's own global excludes (core.excludesFile, else `~/.config/git/ignore`), read once:
 * a command's git gets them back together with the placeholders' patterns.
 */
function globalExcludes(home: string): string {
  if (userExcludes !== undefined) return userExcludes;
  const configured = spawnSync('git', ['config', '--global', '--get', 'core.excludesFile'], { encoding: 'utf8', timeout: 5_000 });
  let file = configured.status === 0 ? configured.stdout.trim() : '';
  if (file.startsWith('~/')) file = path.join(home, file.slice(2));
  if (!file) file = path.join(process.env.XDG_CONFIG_HOME || path.join(home, '.config'), 'git', 'ignore');
  try {
    userExcludes = existsSync(file) ? `${readFileSync(file, 'utf8')}\n` : '';
  } catch {
    userExcludes = '';
  }
  return userExcludes;
}

/**
 * The excludes file for one command: the empty placeholders Tandem mounted where a protected
 * location does not exist (`.claude/`, `.mcp.json`, …) are not the user's files, so git must not
 * see them as untracked: `git stash -u` and `git clean -d` would try to remove them and fail.
 */
export function placeholderExcludes(placeholders: readonly string[], roots: readonly string[], home: string): string {
  const lines = placeholders.map((p) => {
    const root = roots.find((r) => p.startsWith(r + path.sep)) ?? path.dirname(p);
    const rel = path.relative(root, p).split(path.sep).join('/');
    return existsSync(path.join(root, '.git')) ? `/${rel}` : rel;
  });
  return `${globalExcludes(home)}# Tandem: read-only placeholders of protected locations\n${lines.join('\n')}\n`;
}

/** The variables that point a command's git at that file, after any `GIT_CONFIG_COUNT` entries it already has. */
export function excludesEnvironment(base: NodeJS.ProcessEnv): Record<string, string> {
  const count = Number(base.GIT_CONFIG_COUNT) || 0;
  return { GIT_CONFIG_COUNT: String(count + 1), [`GIT_CONFIG_KEY_${count}`]: 'core.excludesFile', [`GIT_CONFIG_VALUE_${count}`]: SANDBOX_GIT_EXCLUDES };
}
