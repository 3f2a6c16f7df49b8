import { scanForInjection } from '../memory/injection-scanner.js';
import { AgentLibrary } from './agent-library.js';
import type { EvolutionChange } from './evolution-log.js';
import type { ReflectionDecision } from './reflect.js';

/** What a change replaced and wrote: each file's text before (`null`: it did not exist) and after. */
export type ReflectionBackup = Record<string, { before: string | null; after: string }>;

/**
 * Applies a reflection's decision to the agent's library: at most `maxSkills` skills created or
 * patched (a `create` of an existing name patches it; a `patch` of a missing one creates it), the
 * profile replaced when given. Text the injection scanner flags is refused (it would reach the
 * agent's prompt). Every file touched is backed up first under the reflection's id, so
 * `revertReflection` puts it all back.
 */
export function applyReflection(
  library: AgentLibrary,
  decision: ReflectionDecision,
  options: { id: string; maxSkills: number },
): { changes: EvolutionChange[]; notes: string[] } {
  const changes: EvolutionChange[] = [];
  const notes: string[] = [];
  const backup: ReflectionBackup = {};
  const write = (file: string, text: string) => {
    backup[file] = { before: backup[file]?.before ?? library.read(file) ?? null, after: text };
    library.write(file, text);
  };
  const seen = new Set<string>();
  for (const skill of decision.skills) {
    if (seen.has(skill.name)) continue;
    seen.add(skill.name);
    if (changes.filter((c) => c.kind !== 'profile_updated').length >= options.maxSkills) {
      notes.push(`skill "${skill.name}" left out: at most ${options.maxSkills} skill change(s) per reflection`);
      continue;
    }
    const scan = scanForInjection(`${skill.description}\n${skill.body}`);
    if (scan.verdict === 'blocked') {
      notes.push(`skill "${skill.name}" refused: ${scan.reason}`);
      continue;
    }
    const file = library.skillFile(skill.name);
    const existed = library.read(file) !== undefined;
    write(file, AgentLibrary.skillText(skill.name, skill.description, skill.body, options.id));
    changes.push({ kind: existed ? 'skill_patched' : 'skill_created', name: skill.name });
  }
  if (decision.profile !== undefined && decision.profile.trim() !== library.profile().trim()) {
    const scan = scanForInjection(decision.profile);
    if (scan.verdict === 'blocked') notes.push(`profile update refused: ${scan.reason}`);
    else {
      write(library.profileFile, `${decision.profile.trim()}\n`);
      changes.push({ kind: 'profile_updated', name: 'profile' });
    }
  }
  if (Object.keys(backup).length > 0) library.writeBackup(options.id, backup);
  return { changes, notes };
}

/**
 * Puts back every file a reflection changed. Refused, changing nothing, when one of them was
 * changed since (by a later reflection or by hand): the files that differ are returned, so the
 * later change can be reverted first. `missing`: the reflection changed nothing to put back.
 */
export function revertReflection(
  library: AgentLibrary,
  id: string,
): { ok: true; files: string[] } | { ok: false; missing: true } | { ok: false; changedSince: string[] } {
  const backup = library.readBackup<ReflectionBackup>(id);
  if (!backup) return { ok: false, missing: true };
  const changedSince = Object.entries(backup)
    .filter(([file, { after }]) => library.read(file) !== after)
    .map(([file]) => file);
  if (changedSince.length > 0) return { ok: false, changedSince };
  for (const [file, { before }] of Object.entries(backup)) library.restore(file, before ?? undefined);
  return { ok: true, files: Object.keys(backup) };
}
