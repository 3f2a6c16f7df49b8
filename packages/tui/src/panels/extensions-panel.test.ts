import { describe, expect, it } from 'vitest';
import { parseInput } from '../input/slash-commands.js';
import { PANEL_KEYS } from '../input/key-intent.js';
import { extensionsContent } from './extensions-panel.js';

describe('the extensions panel (F8, /mcp)', () => {
  it('lists MCP servers with their live status and tools, then skills, failures in red', () => {
    const content = extensionsContent(
      [
        { name: 'everything', scope: 'user', status: 'connected', tools: ['mcp__everything__echo'] },
        { name: 'crashy', scope: 'project', status: 'failed', reason: 'exited with code 1', tools: [] },
        { name: 'repo', scope: 'project', status: 'needs_approval', tools: [] },
      ],
      [{ name: 'deploy', description: 'deploys the site', root: '/w/.tandem/skills', dir: '/w/.tandem/skills/deploy', status: 'ok', command: './deploy.sh' }],
    );
    expect(content.title).toBe('extensions · 1/3 MCP servers connected · 1 skills · 0 packages');
    expect(content.rows.map((r) => [r.text.replace(/\s+/g, ' '), r.tone])).toEqual([
      ['mcp everything user connected', 'good'],
      ['mcp crashy project failed: exited with code 1', 'bad'],
      ['mcp repo project needs_approval', 'muted'],
      ['skill deploy ok deploys the site', 'normal'],
    ]);
    expect(content.rows[0]!.detail).toBe('tools: mcp__everything__echo');
    expect(content.rows[3]!.detail).toBe('/w/.tandem/skills/deploy · command: ./deploy.sh');
    expect(extensionsContent([], []).rows).toEqual([]);
  });

  it('lists the external packages after the skills: kind, commit, the dependency install; a missing folder or a failed install in red', () => {
    const content = extensionsContent(
      [],
      [],
      [
        {
          name: 'kit',
          source: '/r/kit',
          commit: '0123456789abcdef',
          kind: 'both',
          bins: ['kit-run'],
          skills: ['skills/tidy'],
          status: 'ok',
          install: { command: 'npm ci', status: 'done' },
        },
        { name: 'gone', source: 'https://h/gone.git', commit: 'fedcba9876543210', kind: 'cli', bins: ['g'], skills: [], status: 'missing' },
        {
          name: 'py',
          source: '/r/py',
          commit: 'aaaaaaaaaaaaaaaa',
          kind: 'cli',
          bins: ['p'],
          skills: [],
          status: 'ok',
          install: { command: 'pip …', status: 'failed', reason: 'exit 1' },
        },
      ],
    );
    expect(content.title).toBe('extensions · 0/0 MCP servers connected · 0 skills · 3 packages');
    expect(content.rows.map((r) => [r.text.replace(/\s+/g, ' '), r.tone])).toEqual([
      ['pkg kit both 0123456789ab deps done', 'normal'],
      ['pkg gone cli folder missing', 'bad'],
      ['pkg py cli aaaaaaaaaaaa deps failed', 'bad'],
    ]);
    expect(content.rows[0]!.detail).toBe('/r/kit · commands: kit-run · skills: skills/tidy · install: npm ci');
  });

  it('opens from F8 and from /mcp, /skills or /packages', () => {
    expect(PANEL_KEYS.f8).toBe('extensions');
    expect(parseInput('/mcp')).toEqual({ kind: 'panel', panel: 'extensions' });
    expect(parseInput('/skills')).toEqual({ kind: 'panel', panel: 'extensions' });
    expect(parseInput('/packages')).toEqual({ kind: 'panel', panel: 'extensions' });
  });
});
