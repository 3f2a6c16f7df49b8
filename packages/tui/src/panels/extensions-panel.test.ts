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
    expect(content.title).toBe('extensions · 1/3 MCP servers connected · 1 skills');
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

  it('opens from F8 and from /mcp or /skills', () => {
    expect(PANEL_KEYS.f8).toBe('extensions');
    expect(parseInput('/mcp')).toEqual({ kind: 'panel', panel: 'extensions' });
    expect(parseInput('/skills')).toEqual({ kind: 'panel', panel: 'extensions' });
  });
});
