import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import type { CommandCheck } from '../ports/command-check.js';
import { discoverSkills } from './discover-skills.js';

/** Discovery judges every skill's command with the host's check; a refused skill is listed, never usable. */
describe('discoverSkills and the host command check', () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await makeTempDir('skills-');
  });
  afterEach(async () => {
    await dir.cleanup();
  });

  function skill(name: string, command?: string): void {
    mkdirSync(path.join(dir.path, name));
    const lines = ['---', `name: ${name}`, `description: The ${name} skill.`, ...(command ? [`command: ${command}`] : []), '---', 'Body.'];
    writeFileSync(path.join(dir.path, name, 'SKILL.md'), lines.join('\n'));
  }

  it('asks the check once per command (with the home given), refuses what it refuses, and never asks for a skill without a command', () => {
    skill('fine', './run.sh');
    skill('wipe', 'rm -rf ~');
    skill('notes');
    const asked: Array<{ command: string; home?: string }> = [];
    const checkCommand: CommandCheck = (command, where) => {
      asked.push({ command, home: where.home });
      return command.startsWith('rm') ? { blocked: true, message: 'deletes the home folder' } : { blocked: false };
    };
    const found = discoverSkills([{ dir: dir.path, label: 'test', global: false }], { checkCommand, home: '/home/ana' });
    expect(asked.sort((a, b) => a.command.localeCompare(b.command))).toEqual([
      { command: './run.sh', home: '/home/ana' },
      { command: 'rm -rf ~', home: '/home/ana' },
    ]);
    expect(found.skills.map((s) => s.name).sort()).toEqual(['fine', 'notes']);
    expect(found.entries.find((e) => e.name === 'wipe')).toMatchObject({
      status: 'refused',
      reason: 'its command is refused by the command blacklist: deletes the home folder',
    });
  });
});
