import { describe, expect, it } from 'vitest';
import { buildPermissionPreview, PREVIEW_MAX_CHARS } from './preview.js';

// The built-in tools' own previews are tested beside them (tools/call-descriptions.test.ts);
// here, what the policy shows from a declared subject alone, or from nothing.
describe('buildPermissionPreview', () => {
  it('shows a declared command verbatim and a declared path relative to the workspace', () => {
    expect(buildPermissionPreview({ tool: 'x', args: {}, danger: 'dangerous', subject: { command: ' make all ' } })).toBe('make all');
    expect(buildPermissionPreview({ tool: 'x', args: {}, danger: 'medium', subject: { path: '/ws/src/a.ts' } }, { workspace: '/ws' })).toBe('src/a.ts');
  });

  it('shows the arguments of a call that declares nothing, whatever their names', () => {
    const shown = buildPermissionPreview({ tool: 'run_command', args: { command: 'rm -rf /' }, danger: 'dangerous' });
    expect(JSON.parse(shown)).toEqual({ command: 'rm -rf /' });
  });

  it("uses the tool's own preview, with paths shown from the workspace", () => {
    const call = {
      tool: 'x',
      args: {},
      danger: 'medium' as const,
      subject: { path: 'a' },
      preview: (view: { showPath(p: string): string }) => `edit ${view.showPath('/ws/lib/b.ts')}`,
    };
    expect(buildPermissionPreview(call, { workspace: '/ws' })).toBe('edit lib/b.ts');
  });

  it('caps what it shows', () => {
    const preview = buildPermissionPreview({ tool: 'x', args: {}, danger: 'dangerous', subject: { command: 'x'.repeat(10_000) } });
    expect(preview.length).toBeLessThan(PREVIEW_MAX_CHARS + 100);
  });
});
