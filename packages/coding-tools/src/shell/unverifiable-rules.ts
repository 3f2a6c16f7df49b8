import type { Feeder } from './command-invocations.js';
import { flagSet, isRecursive, operands } from './command-targets.js';
import { placeOf, resolvePath, type Cwd, type PathEnv } from './workspace-paths.js';
import { expandBraces, unverifiablePart } from './word-expansion.js';

/**
 * The rules for what the blacklist cannot verify (requirements P3, issue 10): a destructive verb whose
 * targets or arguments come from something the parser cannot resolve to literal text — another
 * command's output (xargs, parallel, find -exec), a variable, a substitution, an expansion — or
 * a recursive delete of the workspace itself or of anything outside it. Each finding says what
 * could not be verified and how to write the command literally.
 */
export interface Finding {
  pattern: string;
  why: string;
  /** `destructive` when the target is known and out of bounds; `unverifiable` (default) when it cannot be known. */
  category?: 'destructive' | 'unverifiable';
}

export interface CallContext {
  env: PathEnv;
  cwds: readonly Cwd[];
  /** Who feeds this call its arguments (its own wrapper, or the script it runs in). */
  fedBy?: Feeder;
}

/** Verbs whose targets must be literal: what they destroy depends entirely on their arguments. */
const TARGET_VERBS = new Set(['rm', 'unlink', 'shred', 'srm', 'wipe', 'truncate', 'chown', 'chgrp', 'chmod']);

export function isTargetVerb(name: string): boolean {
  return TARGET_VERBS.has(name);
}

/** `rm -rf`, `chmod -R`: the verb as written with its flags, for the refusal sentence. */
export function verbLabel(argv: readonly string[], name: string): string {
  const flags = argv.slice(1).filter((a) => /^-[A-Za-z]+$|^--(recursive|force)$/.test(a));
  return [name, ...flags].join(' ').slice(0, 40);
}

/** Does this verb destroy something when fed unknown arguments? (`chmod +x` does not, `chmod -R` may.) */
function destroysWhenFed(argv: readonly string[], name: string): boolean {
  if (name === 'chmod') return isRecursive(flagSet(argv.slice(1)));
  return TARGET_VERBS.has(name);
}

const FEEDER_WORDS: Record<Feeder['kind'], string> = {
  xargs: 'xargs',
  parallel: 'parallel',
  find: 'find',
};

export function targetFinding(argv: readonly string[], name: string, ctx: CallContext): Finding | undefined {
  if (!TARGET_VERBS.has(name)) return undefined;
  const label = verbLabel(argv, name);
  const fed = ctx.fedBy;
  if (fed && fed.kind !== 'find' && destroysWhenFed(argv, name)) {
    return {
      pattern: `${name} fed by ${fed.kind}`,
      why: `${label} gets its targets from ${FEEDER_WORDS[fed.kind]}, which the blacklist cannot verify; run ${label} with literal paths inside the workspace`,
    };
  }
  if (fed?.kind === 'find' && destroysWhenFed(argv, name)) {
    const bad = findStartProblem(fed.findArgv ?? [], ctx);
    if (bad)
      return {
        category: bad.outside ? 'destructive' : 'unverifiable',
        pattern: 'find -exec outside the workspace',
        why: `${label} runs on what find finds, but ${bad.text}`,
      };
  }
  const args = argv.slice(1);
  const dynamic = firstDynamic(name === 'chmod' ? chmodCheckedWords(args) : args, ctx, fed?.kind === 'find');
  if (dynamic) {
    return {
      pattern: 'destructive verb with an unverifiable argument',
      why: `${label} gets an argument from ${dynamic}, which the blacklist cannot verify; write the paths out literally (inside the workspace)`,
    };
  }
  if (name === 'rm' && isRecursive(flagSet(args))) return recursiveDeleteFinding(args, label, ctx, fed?.kind === 'find');
  return undefined;
}

/** chmod: the mode always; the files only for `chmod -R` (a non-recursive mode change on unknown files is asked, not refused). */
function chmodCheckedWords(args: readonly string[]): string[] {
  const ops = operands(args);
  return isRecursive(flagSet(args)) ? args.slice() : ops.slice(0, 1);
}

function firstDynamic(words: readonly string[], ctx: CallContext, inFind: boolean): string | undefined {
  for (const word of words) {
    if (inFind && word === '{}') continue;
    if (inFind && word.includes('{}')) return `\`${word}\` (find's path with more text attached)`;
    const part = unverifiablePart(word, ctx.env);
    if (part) return part;
  }
  return undefined;
}

function recursiveDeleteFinding(args: readonly string[], label: string, ctx: CallContext, inFind: boolean): Finding | undefined {
  for (const op of operands(args)) {
    if (inFind && op === '{}') continue;
    for (const word of expandBraces(op) ?? [op]) {
      for (const cwd of ctx.cwds) {
        const abs = resolvePath(word, cwd, ctx.env);
        if (abs === null) {
          return {
            pattern: 'rm -r after an unknown cd',
            why: `${label} ${word} runs in a directory the blacklist cannot follow (after cd to a variable, cd - or popd); cd to a literal path joined with && first`,
          };
        }
        const place = placeOf(abs, ctx.env);
        if (place === 'workspace') {
          return {
            category: 'destructive',
            pattern: 'rm -r of the workspace',
            why: `${label} ${word} would delete the whole workspace (${ctx.env.workspace})${ctx.cwds.length > 1 && cwd === ctx.env.workspace ? ', counting the case that an earlier cd failed' : ''}; delete named subdirectories instead, e.g. rm -rf ./build, and join cd to them with &&`,
          };
        }
        if (place === 'outside') {
          return {
            category: 'destructive',
            pattern: 'rm -r outside the workspace',
            why: `${label} ${word} targets ${abs}, outside the workspace ${ctx.env.workspace}; recursive deletes must stay inside the workspace, written as paths relative to it`,
          };
        }
      }
    }
  }
  return undefined;
}

const FIND_TESTS = new Set(
  '-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -newer -anewer -cnewer -newermt -newerct -mtime -mmin -atime -amin -ctime -cmin -size -empty -perm -user -group -uid -gid -links -inum -samefile -lname -ilname -used -nouser -nogroup -readable -writable -executable -fstype -context'.split(
    ' ',
  ),
);
const FIND_DELETE_VERBS = new Set(['rm', 'unlink', 'shred', 'srm', 'wipe', 'truncate', 'chown', 'chgrp']);

/** find with -delete, or -exec/-execdir/-ok of a destructive verb. */
export function findFinding(argv: readonly string[], ctx: CallContext): Finding | undefined {
  const deletes = argv.includes('-delete') || execVerbs(argv).some((v) => FIND_DELETE_VERBS.has(v));
  if (!deletes) return undefined;
  const bad = findStartProblem(argv, ctx);
  if (bad)
    return {
      category: bad.outside ? 'destructive' : 'unverifiable',
      pattern: 'find -delete outside the workspace',
      why: `find deletes what it finds, but ${bad.text}`,
    };
  const starts = findStarts(argv);
  const wholeWorkspace = starts.some((s) => ctx.cwds.some((cwd) => resolvePath(s, cwd, ctx.env) === ctx.env.workspace));
  if (wholeWorkspace && !argv.some((a) => FIND_TESTS.has(a))) {
    return {
      category: 'destructive',
      pattern: 'find -delete of the whole workspace',
      why: 'find deletes everything under the workspace (no -name, -path or -type test narrows it); name what to delete, e.g. find . -name "*.tmp" -delete',
    };
  }
  return undefined;
}

/** Why find's starting points cannot bound what it finds, or undefined when they do. */
function findStartProblem(argv: readonly string[], ctx: CallContext): { text: string; outside: boolean } | undefined {
  const problem = findStartText(argv, ctx);
  return problem === undefined ? undefined : { text: problem, outside: / outside the workspace /.test(problem) };
}

function findStartText(argv: readonly string[], ctx: CallContext): string | undefined {
  if (argv.some((a) => a === '-L' || a === '-follow')) {
    return 'it follows symbolic links (-L/-follow), which the blacklist cannot follow out of the workspace; drop -L';
  }
  for (const start of findStarts(argv)) {
    const part = unverifiablePart(start, ctx.env);
    if (part) return `it starts at ${part}, which the blacklist cannot verify; start find at a literal path inside the workspace, e.g. find ./build`;
    for (const cwd of ctx.cwds) {
      const abs = resolvePath(start, cwd, ctx.env);
      if (abs === null)
        return `it starts in a directory the blacklist cannot follow (after cd to a variable, cd - or popd); start find at a literal path inside the workspace`;
      if (placeOf(abs, ctx.env) === 'outside' || (abs !== ctx.env.workspace && placeOf(abs, ctx.env) === 'workspace' && !abs.includes('*'))) {
        return `it starts at ${abs}, outside the workspace ${ctx.env.workspace}; start find at a literal path inside the workspace, e.g. find . or find ./build`;
      }
    }
  }
  return undefined;
}

/** `find -H -L dir1 dir2 -name x` → [dir1, dir2] (no starting point means "."). */
export function findStarts(argv: readonly string[]): string[] {
  const rest = argv.slice(1);
  let i = 0;
  while (i < rest.length && /^-[HLP]$|^-D$|^-O\d$/.test(rest[i]!)) i += rest[i] === '-D' ? 2 : 1;
  const points: string[] = [];
  while (i < rest.length && !/^[-(!]/.test(rest[i]!)) points.push(rest[i++]!);
  return points.length > 0 ? points : ['.'];
}

function execVerbs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length - 1; i++) {
    if (['-exec', '-execdir', '-ok', '-okdir'].includes(argv[i]!)) out.push(argv[i + 1]!.slice(argv[i + 1]!.lastIndexOf('/') + 1).toLowerCase());
  }
  return out;
}
