import { ARGV_RULES, socketWord, type BlacklistCategory } from './blacklist-rules.js';
import { isShellProgram, programName, resolveInvocations, type Invocation, type ScriptText } from './command-invocations.js';
import type { CheckEnv } from './workspace-paths.js';
import { inlineEffect, EFFECT_WORDS } from './inline-code-primitives.js';
import { interpreterCall } from './inline-code.js';
import { printedText } from './printed-text.js';
import { fedProgram, readsProgram } from './shell-feeding.js';
import { lexShell, type ShellSegment } from './shell-lexer.js';
import { findFinding, isTargetVerb, targetFinding, type Finding } from './unverifiable-rules.js';
import { relocationFinding } from './relocation-rules.js';
import { kindOfCwd } from './workspace-paths.js';
import { expandBraces, unverifiablePart } from './word-expansion.js';

/**
 * Every check on one call (one program with its arguments, as it will run): the fixed rules of
 * requirements P3, then what the parser cannot verify. Returns the first finding, or the scripts the call
 * runs (shell text it is fed, alias bodies) for the caller to check in turn.
 */
export type CallFinding = Omit<Finding, 'category'> & { category: BlacklistCategory };

export interface CallResult {
  finding?: CallFinding;
  scripts: ScriptText[];
}

/** Programs whose output piped into a shell makes a reverse shell. */
const NETWORK_FEEDERS = new Set(['nc', 'ncat', 'netcat', 'telnet', 'socat', 'openssl']);

export function checkCall(
  call: Invocation,
  segment: ShellSegment,
  previous: ShellSegment | undefined,
  env: CheckEnv,
  aliases: Map<string, string>,
): CallResult {
  const { argv } = call;
  const name = programName(argv[0] ?? '');
  const scripts: ScriptText[] = [];
  const found = (category: BlacklistCategory, f: Finding): CallResult => ({ finding: { pattern: f.pattern, why: f.why, category }, scripts });

  const fixed = fixedRule(argv, name, env);
  if (fixed) return { finding: fixed, scripts };

  // `$(echo sudo) ls`: a substitution in command position runs whatever it prints.
  const echoed = echoedSubstitution(argv[0] ?? '');
  if (echoed !== undefined) {
    for (const text of echoed) scripts.push({ text: [text, ...argv.slice(1)].join(' ') });
  } else {
    const part = unverifiablePart(argv[0] ?? '', env);
    if (part) {
      return found('unverifiable', {
        pattern: 'command name from a variable or substitution',
        why: `the command to run comes from ${part}, which the blacklist cannot verify; write the program name literally`,
      });
    }
  }

  if (isTargetVerb(name) || name === 'find') {
    const wide = expandedRule(argv, name, env);
    if (wide) return { finding: wide, scripts };
  }
  const ctx = { env, cwds: env.cwds, ...(call.fedBy ? { fedBy: call.fedBy } : {}) };
  const target = targetFinding(argv, name, ctx);
  if (target) return found(target.category ?? 'unverifiable', target);
  if (name === 'find') {
    const f = findFinding(argv, ctx);
    if (f) return found(f.category ?? 'unverifiable', f);
  }
  const moved = relocationFinding(argv, name, ctx);
  if (moved) return found(moved.category ?? 'unverifiable', moved);

  const interpreter = interpreterCall(argv, name);
  // `python3 -c "$CODE"`, `node -e "$(curl …)"`: the whole program is only known at run time.
  const wholeExpansion =
    interpreter?.code !== undefined ? /^\s*(\$[A-Za-z_][A-Za-z0-9_]*|\$\{[^}]*\}|\$\([\s\S]*\)|`[\s\S]*`)\s*$/.exec(interpreter.code) : null;
  if (interpreter && wholeExpansion) {
    return found('unverifiable', {
      pattern: 'inline code from a variable or substitution',
      why: `${name} ${interpreter.flag ?? ''} runs code that comes from \`${wholeExpansion[1]!.slice(0, 40)}\`, which the blacklist cannot verify; write the code out literally`,
    });
  }
  if (interpreter) {
    const codes = interpreter.code !== undefined ? [interpreter.code] : [];
    if (interpreter.readsStdin) {
      const fed = fedProgram(segment, previous, argv, name, true);
      if (fed.refuse) return found('unverifiable', fed.refuse);
      codes.push(...fed.texts);
    }
    for (const code of codes) {
      const effect = inlineEffect(interpreter.language, code);
      if (!effect) continue;
      const words = EFFECT_WORDS[effect.effect];
      const how = interpreter.code !== undefined ? `${name} ${interpreter.flag ?? ''} code` : `the program ${name} reads from its input`;
      return found('unverifiable', {
        pattern: `${interpreter.language} inline code that ${effect.effect === 'dynamic' ? 'evaluates' : effect.effect === 'delete' ? 'deletes' : effect.effect === 'spawn' ? 'spawns' : 'connects'}`,
        why: `${how} ${words.does} (${effect.primitive}), which the blacklist cannot verify; ${words.instead}`,
      });
    }
  }

  if (readsProgram(name)) {
    if (isShellProgram(name) && previous?.next === '|' && NETWORK_FEEDERS.has(programName(resolveInvocations(previous.words).calls[0]?.argv[0] ?? ''))) {
      return found('reverse_shell', { pattern: 'nc … | sh', why: 'runs commands that arrive over a network connection' });
    }
    const fed = fedProgram(segment, previous, argv, name);
    if (fed.refuse) return found('unverifiable', fed.refuse);
    for (const text of fed.texts) scripts.push({ text });
  }

  if (name === 'alias') {
    for (const arg of argv.slice(1)) {
      const eq = arg.indexOf('=');
      if (eq <= 0) continue;
      aliases.set(arg.slice(0, eq), arg.slice(eq + 1));
      scripts.push({ text: arg.slice(eq + 1) });
    }
  }
  if (name === 'hash' && argv[1] === '-p' && argv[2] !== undefined && argv[3] !== undefined) aliases.set(argv[3], argv[2]);
  const alias = aliases.get(argv[0] ?? '');
  if (alias !== undefined) scripts.push({ text: [alias, ...argv.slice(1).map(quote)].join(' ') });
  return { scripts };
}

/** The fixed P3 rules, for every directory the call may run in. */
function fixedRule(argv: readonly string[], name: string, env: CheckEnv): CallFinding | undefined {
  const kinds = [...new Set(env.cwds.map((cwd) => kindOfCwd(cwd, env)))];
  for (const rule of ARGV_RULES) {
    const hits = kinds.filter((kind) => rule.matches(argv, name, { home: env.home, cwd: kind }));
    if (hits.length === 0) continue;
    // Only some of the possible directories make it dangerous: an earlier cd may fail.
    const note = hits.length < kinds.length ? ' (counting the case that an earlier cd failed; join cd and this command with &&)' : '';
    return { category: rule.category, pattern: rule.pattern, why: `${rule.why}${note}` };
  }
  if (socketWord(argv)) return { category: 'reverse_shell', pattern: '/dev/tcp/', why: 'opens a raw network connection from the shell' };
  return undefined;
}

/** `rm -rf {~,x}`, `chmod {777,644} f`: the fixed rules on the brace-expanded arguments too. */
function expandedRule(argv: readonly string[], name: string, env: CheckEnv): CallFinding | undefined {
  if (!argv.some((a) => /\{[^}]*,/.test(a))) return undefined;
  const expanded: string[] = [];
  for (const word of argv) {
    const words = expandBraces(word);
    if (!words) {
      return {
        category: 'unverifiable',
        pattern: 'brace expansion',
        why: `${name} gets a brace expansion too large to check (${word.slice(0, 40)}); write the paths out`,
      };
    }
    expanded.push(...words);
  }
  return fixedRule(expanded, name, env);
}

/** For a word that is exactly `$(…)` or a backtick substitution of one echo/printf, what it prints. */
function echoedSubstitution(word: string): string[] | undefined {
  const m = /^\$\(([\s\S]*)\)$/.exec(word) ?? /^`([\s\S]*)`$/.exec(word);
  if (!m) return undefined;
  const segments = lexShell(m[1]!);
  if (segments.length !== 1) return undefined;
  const printed = printedText(resolveInvocations(segments[0]!.words).calls[0]?.argv);
  return printed && 'texts' in printed ? printed.texts : undefined;
}

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
