import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Git repositories made by tests (the fixtures of `tandem packages`).

/** A file of a fixture repository: its text, and whether it is executable. */
export type FixtureFile = string | { text: string; executable?: boolean } | { symlinkTo: string };

const AUTHOR = ['-c', 'user.email=fixture@example.com', '-c', 'user.name=Fixture', '-c', 'commit.gpgsign=false'];

/** Makes a git repository at `dir` holding `files` in one commit (another commit with `commitFiles`). */
export function makeRepo(dir: string, files: Record<string, FixtureFile>): string {
  mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', '--', dir]);
  return commitFiles(dir, files, 'first');
}

/** Writes `files` into the repository and commits them; returns the new commit. */
export function commitFiles(dir: string, files: Record<string, FixtureFile>, message: string): string {
  for (const [rel, file] of Object.entries(files)) {
    const full = path.join(dir, rel);
    mkdirSync(path.dirname(full), { recursive: true });
    if (typeof file === 'object' && 'symlinkTo' in file) {
      symlinkSync(file.symlinkTo, full);
      continue;
    }
    const text = typeof file === 'string' ? file : file.text;
    writeFileSync(full, text);
    if (typeof file === 'object' && file.executable) chmodSync(full, 0o755);
  }
  execFileSync('git', ['add', '--all'], { cwd: dir });
  execFileSync('git', [...AUTHOR, 'commit', '--quiet', '-m', message], { cwd: dir });
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
}

/** A SKILL.md with `name`, `description` and a body (and `command` when given). */
export function skillFile(name: string, description: string, body: string, command?: string): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n${command ? `command: ${JSON.stringify(command)}\n` : ''}---\n${body}\n`;
}

/** A skill-shaped repository: `skills/NAME/SKILL.md` for each name. */
export function skillRepo(dir: string, skills: Record<string, { description: string; body: string; command?: string }>): string {
  const files: Record<string, FixtureFile> = { 'README.md': '# skills\n' };
  for (const [name, s] of Object.entries(skills)) files[`skills/${name}/SKILL.md`] = skillFile(name, s.description, s.body, s.command);
  return makeRepo(dir, files);
}

/** A CLI-shaped repository: an executable `bin/NAME` that prints `output`. */
export function cliRepo(dir: string, name: string, output: string): string {
  return makeRepo(dir, { [`bin/${name}`]: { text: `#!/bin/sh\necho "${output} $*"\n`, executable: true }, 'README.md': '# a cli\n' });
}
