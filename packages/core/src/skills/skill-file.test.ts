import { describe, expect, it } from 'vitest';
import type { Skill } from './discover-skills.js';
import { parseSkillFile } from './skill-file.js';
import { skillsPromptSection } from './skills-prompt.js';
import { skillCommandLine, skillToolName } from './skill-tool-name.js';

describe('parseSkillFile', () => {
  it('reads name, description, command and keeps optional fields; tolerates a BOM, CRLF and folded YAML', () => {
    const text =
      '\uFEFF---\r\nname: pdf-tools\r\ndescription: >-\r\n  Fills PDF forms.\r\n  Use for PDFs.\r\ncommand: ./fill.sh\r\nlicense: MIT\r\nmetadata:\r\n  version: 2\r\n---\r\nThe body.\r\n';
    const parsed = parseSkillFile(text, 'pdf-tools');
    expect(parsed).toMatchObject({
      ok: true,
      skill: { name: 'pdf-tools', description: 'Fills PDF forms. Use for PDFs.', command: './fill.sh', body: 'The body.' },
    });
    if (parsed.ok) expect(parsed.skill.frontmatter).toMatchObject({ license: 'MIT', metadata: { version: 2 } });
  });

  it('says what is wrong: no frontmatter, bad YAML, bad or mismatched name, missing or long description', () => {
    expect(parseSkillFile('just text', 'a')).toMatchObject({ ok: false, reason: expect.stringContaining('no frontmatter') });
    expect(parseSkillFile('---\nname: [a\n---\n', 'a')).toMatchObject({ ok: false, reason: expect.stringContaining('not valid YAML') });
    expect(parseSkillFile('---\nname: Bad_Name\ndescription: x\n---\n', 'Bad_Name')).toMatchObject({ ok: false, reason: expect.stringContaining('a-z, 0-9') });
    expect(parseSkillFile('---\nname: other\ndescription: x\n---\n', 'folder')).toMatchObject({ ok: false, reason: expect.stringContaining('folder name') });
    expect(parseSkillFile('---\nname: a\n---\n', 'a')).toMatchObject({ ok: false, reason: expect.stringContaining('no `description`') });
    expect(parseSkillFile(`---\nname: a\ndescription: ${'x'.repeat(1025)}\n---\n`, 'a')).toMatchObject({ ok: false, reason: expect.stringContaining('1024') });
    expect(parseSkillFile(`---\nname: ${'a'.repeat(65)}\ndescription: x\n---\n`, 'a'.repeat(65))).toMatchObject({ ok: false });
  });
});

describe('skillsPromptSection', () => {
  const make = (n: number, description: string): Skill[] =>
    Array.from({ length: n }, (_, i) => ({ name: `skill-${i}`, description, dir: `/s/${i}`, root: 'r', frontmatter: {}, body: '' }));

  it('lists every name with its description when it fits, shortens descriptions first, then leaves skills out with a count', () => {
    expect(skillsPromptSection(make(2, 'short one'))).toContain('- skill-1: short one');
    const long = skillsPromptSection(make(10, 'd'.repeat(1000)), 3_000)!;
    expect(long.length).toBeLessThanOrEqual(3_000);
    expect(long).toContain('- skill-9: ');
    expect(long).toContain('…');
    const many = skillsPromptSection(make(200, 'd'.repeat(500)), 2_000)!;
    expect(many.length).toBeLessThanOrEqual(2_000);
    expect(many).toMatch(/and \d+ more skill\(s\) not listed/);
    expect(skillsPromptSection([])).toBeUndefined();
  });

  it('names command tools skill__NAME within 64 characters and appends arguments as written', () => {
    expect(skillToolName('hello')).toBe('skill__hello');
    expect(skillToolName('a'.repeat(64)).length).toBeLessThanOrEqual(64);
    expect(skillCommandLine('./run.sh', ' --x 1 ')).toBe('./run.sh --x 1');
    expect(skillCommandLine('./run.sh', undefined)).toBe('./run.sh');
  });
});
