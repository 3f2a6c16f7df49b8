import { classifyTarget, flagSet, operands } from './command-targets.js';
import type { CallContext, Finding } from './unverifiable-rules.js';
import { placeOf, resolvePath } from './workspace-paths.js';
import { unverifiablePart } from './word-expansion.js';

/**
 * Deletes that do not say "rm": moving a protected directory away (`mv ~ /tmp/x`), mirroring
 * an empty directory over one (`rsync --delete empty/ ~/`), cleaning a repository outside the
 * workspace (`git -C .. clean -fdx`), and giving a system program a new name the blacklist would
 * no longer recognise (`cp /bin/rm ./x`, `ln -s /bin/dd d`, `hash -p /bin/rm x`).
 */
const BIN_DIRS = /^\/(usr\/(local\/)?)?s?bin\/[^/]+$/;

export function relocationFinding(argv: readonly string[], name: string, ctx: CallContext): Finding | undefined {
  const args = argv.slice(1);
  if (name === 'mv') return moveFinding(args, ctx);
  if (name === 'rsync') return rsyncFinding(args, ctx);
  if (name === 'git') return gitCleanFinding(args, ctx);
  if (['cp', 'ln', 'install', 'link'].includes(name) || (name === 'hash' && args.includes('-p'))) {
    const source = operands(args).find((op) => BIN_DIRS.test(op) || /\$\(\s*(which|command\s+-v|type\s+-p)\b|`\s*(which|command\s+-v)\b/.test(op));
    if (source) {
      return {
        category: 'unverifiable',
        pattern: 'a new name for a system program',
        why: `${name} gives ${source} a new name, and the blacklist cannot verify what runs under that name; call the program by its own name`,
      };
    }
  }
  return undefined;
}

function moveFinding(args: readonly string[], ctx: CallContext): Finding | undefined {
  const ops = operands(args);
  for (const source of ops.slice(0, -1)) {
    const kind = classifyTarget(source, ctx.env.home);
    if (kind === 'root' || kind === 'home' || kind === 'system') {
      return {
        category: 'destructive',
        pattern: 'mv of / ~ . or a system directory',
        why: `mv ${source} moves a whole protected directory away, which deletes it where it was; move named files or subdirectories inside the workspace instead`,
      };
    }
    for (const cwd of ctx.cwds) {
      const abs = unverifiablePart(source, ctx.env) ? null : resolvePath(source, cwd, ctx.env);
      if (abs !== null && !abs.includes('*') && placeOf(abs, ctx.env) === 'workspace') {
        return {
          category: 'destructive',
          pattern: 'mv of the workspace',
          why: `mv ${source} moves the whole workspace away; move named files or subdirectories instead`,
        };
      }
    }
  }
  return undefined;
}

function rsyncFinding(args: readonly string[], ctx: CallContext): Finding | undefined {
  const flags = flagSet(args);
  const deletes = [...flags].some((f) => f.startsWith('--delete') || f === '--remove-source-files');
  if (!deletes) return undefined;
  const dest = operands(args).at(-1);
  if (dest === undefined) return undefined;
  if (/^[^/]*:/.test(dest)) return undefined; // a remote destination: not this machine
  const part = unverifiablePart(dest, ctx.env);
  const abs = part ? null : resolvePath(dest, ctx.cwds[0] ?? null, ctx.env);
  if (abs === null || ctx.cwds.some((cwd) => placeOf(resolvePath(dest, cwd, ctx.env) ?? '/', ctx.env) !== 'inside')) {
    return {
      category: abs === null ? 'unverifiable' : 'destructive',
      pattern: 'rsync --delete outside the workspace',
      why: `rsync --delete removes files under ${part ?? abs ?? dest}, ${part ? 'which the blacklist cannot verify' : 'which is not a directory inside the workspace'}; sync into a literal subdirectory of the workspace`,
    };
  }
  return undefined;
}

function gitCleanFinding(args: readonly string[], ctx: CallContext): Finding | undefined {
  if (!args.includes('clean')) return undefined;
  for (let i = 0; i < args.length; i++) {
    const dir = args[i] === '-C' ? args[i + 1] : args[i]!.startsWith('--work-tree=') ? args[i]!.slice(12) : undefined;
    if (dir === undefined) continue;
    const part = unverifiablePart(dir, ctx.env);
    const abs = part ? null : resolvePath(dir, ctx.cwds[0] ?? null, ctx.env);
    if (abs === null || placeOf(abs, ctx.env) === 'outside' || (abs !== ctx.env.workspace && placeOf(abs, ctx.env) === 'workspace')) {
      return {
        category: abs === null ? 'unverifiable' : 'destructive',
        pattern: 'git clean outside the workspace',
        why: `git clean deletes untracked files under ${part ?? abs}, ${part ? 'which the blacklist cannot verify' : 'outside the workspace'}; run git clean in the workspace`,
      };
    }
  }
  return undefined;
}
