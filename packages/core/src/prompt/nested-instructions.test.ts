import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Message } from '@tandem/ai';
import { loadInstructions } from './load-instructions.js';
import { NestedInstructions } from './nested-instructions.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-nested-')));
const ws = join(base, 'ws');
const outside = join(base, 'outside');
afterAll(() => rmSync(base, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

write(join(ws, 'AGENTS.md'), 'root rules');
write(join(ws, 'a', 'AGENTS.md'), 'A rules');
write(join(ws, 'a', 'b', 'file.ts'), 'x');
write(join(outside, 'secret.md'), 'SECRET');
mkdirSync(join(ws, 'linked'), { recursive: true });
symlinkSync(join(outside, 'secret.md'), join(ws, 'linked', 'AGENTS.md'));

describe('nested instructions', () => {
  it('gives the folder chain below the root once, and again when the conversation lost it', () => {
    const nested = new NestedInstructions(ws);
    const text = nested.forPaths(['a/b/file.ts'], []);
    expect(text).toBe("[Instructions from a/AGENTS.md: they apply to work under a/, on top of the project's instructions]\nA rules");
    const conversation: Message[] = [{ role: 'tool', callId: 'c1', name: 'read_file', output: `x\n\n${text}`, isError: false }];
    expect(nested.forPaths(['a/b', join(ws, 'a')], conversation)).toBe('');
    expect(nested.forPaths(['a/b/file.ts'], [])).toContain('A rules');
  });

  it('never reads outside the workspace, through a path or a symbolic link', () => {
    const nested = new NestedInstructions(ws);
    expect(nested.forPaths([join(outside, 'secret.md'), '../outside/secret.md'], [])).toBe('');
    expect(nested.forPaths(['linked/x.txt'], [])).toBe('');
  });

  it('the prompt takes AGENTS.md before CLAUDE.md, then the user’s own AGENTS.md', () => {
    write(join(base, 'claude-only', 'CLAUDE.md'), 'claude rules');
    write(join(base, 'data', 'AGENTS.md'), 'user rules');
    expect(loadInstructions({ cwd: ws }).map((i) => i.text)).toEqual(['root rules']);
    expect(loadInstructions({ cwd: join(base, 'claude-only'), dataDir: join(base, 'data') })).toEqual([
      { source: 'CLAUDE.md in the workspace', text: 'claude rules' },
      { source: `your own ${join(base, 'data', 'AGENTS.md')} (it applies to every project)`, text: 'user rules' },
    ]);
  });
});
