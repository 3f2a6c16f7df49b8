import { describe, expect, it } from 'vitest';
import type { Danger } from '@tandem/shared';
import { evaluatePermission } from '@tandem/coding-tools';
import { ruleFromDecision } from '@tandem/coding-tools';
import type { PermissionRule, PolicyCall, RuleDraft } from '@tandem/coding-tools';
import { declared } from './declared-call.test-helper.js';

const WS = '/home/ana/project';

function cmd(command: string): PolicyCall {
  return { tool: 'run_command', args: { command }, danger: 'dangerous' as Danger };
}
function file(tool: string, path: string, danger: Danger = 'medium'): PolicyCall {
  return { tool, args: { path, content: 'x' }, danger };
}
function evaluate(call: PolicyCall, rules: { session?: PermissionRule[]; stored?: PermissionRule[] } = {}) {
  return evaluatePermission(declared(call), { sessionRules: rules.session ?? [], storedRules: rules.stored ?? [], workspace: WS });
}
/** The rule a person's forever-answer with `scope` makes for `call`. */
function decide(call: PolicyCall, decision: 'allow_forever' | 'deny_forever' | 'allow_session', scope?: string): RuleDraft {
  const made = ruleFromDecision(declared(call), decision, scope, 'ana', { workspace: WS });
  if (!made.ok || !made.rule) throw new Error(`no rule: ${JSON.stringify(made)}`);
  return made.rule;
}

describe('evaluatePermission: decision paths', () => {
  it('always allows a safe tool, even against a deny rule', () => {
    const deny: PermissionRule = { tool: 'read_file', match: 'tool', effect: 'deny', by: 'ana' };
    const result = evaluate(file('read_file', 'a.txt', 'safe'), { stored: [deny] });
    expect(result).toMatchObject({ verdict: 'allow', level: 'safe' });
  });

  it('asks when nothing covers a medium or dangerous call, offering scopes', () => {
    const result = evaluate(cmd('git status'));
    expect(result).toMatchObject({ verdict: 'ask', level: 'dangerous', scopes: ['git status', 'git status *', 'git *'] });
    expect(evaluate(file('write_file', 'src/lib/a.ts'))).toMatchObject({
      verdict: 'ask',
      level: 'medium',
      scopes: ['src/lib/a.ts', 'src/lib/', 'src/', './', '*'],
    });
  });

  it('allows by a session rule, reporting the session as the source', () => {
    const rule = decide(cmd('npm test'), 'allow_session');
    expect(evaluate(cmd('npm test'), { session: [rule] })).toMatchObject({ verdict: 'allow', source: 'session', rule });
    expect(evaluate(cmd('npm test -- --watch'), { session: [rule] }).verdict).toBe('ask');
  });

  it('allows by a stored rule', () => {
    const rule = decide(cmd('npm test'), 'allow_forever');
    expect(evaluate(cmd('npm test'), { stored: [rule] })).toMatchObject({ verdict: 'allow', source: 'stored' });
  });

  it('denies by a stored deny rule', () => {
    const rule = decide(cmd('curl example.com'), 'deny_forever', 'curl *');
    const result = evaluate(cmd('curl -s other.org'), { stored: [rule] });
    expect(result).toMatchObject({ verdict: 'deny', source: 'stored' });
    expect(result.reason).toContain('curl');
  });

  it('lets a deny rule win over an allow rule, wherever each lives', () => {
    const allow = decide(cmd('git push'), 'allow_session', 'git *');
    const deny = decide(cmd('git push'), 'deny_forever');
    expect(evaluate(cmd('git push'), { session: [allow], stored: [deny] }).verdict).toBe('deny');
    expect(evaluate(cmd('git pull'), { session: [allow], stored: [deny] }).verdict).toBe('allow');
    expect(evaluate(cmd('git status && git push'), { session: [allow], stored: [deny] }).verdict).toBe('deny');
  });

  it('ignores rules for other tools and other workspaces (the caller passes only this workspace)', () => {
    const rule: PermissionRule = { tool: 'write_file', match: 'tool', effect: 'allow', by: 'ana' };
    expect(evaluate(file('edit_file', 'a.ts'), { stored: [rule] }).verdict).toBe('ask');
  });

  it('never lets an allow rule cover an always-ask tool, but a deny still applies', () => {
    const call = { tool: 'configure_provider', args: { name: 'x' }, danger: 'dangerous' as Danger };
    const allow: PermissionRule = { tool: 'configure_provider', match: 'tool', effect: 'allow', by: 'ana' };
    const deny: PermissionRule = { tool: 'configure_provider', match: 'tool', effect: 'deny', by: 'ana' };
    expect(evaluate(call, { stored: [allow] })).toMatchObject({ verdict: 'ask', scopes: [] });
    expect(evaluate(call, { stored: [allow, deny] }).verdict).toBe('deny');
  });

  it('does not crash on arguments of the wrong shape', () => {
    expect(evaluate({ tool: 'run_command', args: null as never, danger: 'dangerous' }).verdict).toBe('ask');
    expect(evaluate({ tool: 'run_command', args: { command: 42 } as never, danger: 'dangerous' }).verdict).toBe('ask');
    expect(evaluate({ tool: 'write_file', args: 'nope' as never, danger: 'medium' }).scopes).toEqual(['*']);
  });
});

describe('evaluatePermission: compound command precision', () => {
  const approved = decide(cmd('git status && rm -rf tmp'), 'allow_forever');

  it('allows the exact approved command again', () => {
    expect(approved).toEqual({ tool: 'run_command', match: 'exact', pattern: 'git status && rm -rf tmp', effect: 'allow', by: 'ana' });
    expect(evaluate(cmd('git status && rm -rf tmp'), { stored: [approved] }).verdict).toBe('allow');
    expect(evaluate(cmd('  git status && rm -rf tmp  '), { stored: [approved] }).verdict).toBe('allow');
  });

  it.each(['rm -rf tmp', 'rm -rf other', 'git status && rm -rf other', 'rm -rf tmp && git status', 'git status', 'git status; rm -rf tmp; ls'])(
    'does not allow %s',
    (other) => {
      expect(evaluate(cmd(other), { stored: [approved] }).verdict).toBe('ask');
    },
  );

  it('needs every segment covered, and the most dangerous one sets the level', () => {
    const git = decide(cmd('git status'), 'allow_forever', 'git status *');
    expect(evaluate(cmd('git status -s && ls'), { stored: [git] })).toMatchObject({ verdict: 'ask', level: 'dangerous' });
    const ls = decide(cmd('ls'), 'allow_forever', 'ls');
    expect(evaluate(cmd('git status -s && ls'), { stored: [git, ls] }).verdict).toBe('allow');
    expect(evaluate(cmd('git status -s | ls'), { stored: [git, ls] }).verdict).toBe('allow');
    expect(evaluate(cmd('git status -s && ls -la'), { stored: [git, ls] }).verdict).toBe('ask');
  });

  it('lets an explicitly chosen prefix "git" cover git log, but not gitx or a smuggled segment', () => {
    const call = cmd('git status');
    const offered = evaluate(call).scopes;
    expect(offered).toContain('git *');
    const git = decide(call, 'allow_forever', 'git *');
    expect(git).toMatchObject({ match: 'prefix', pattern: 'git' });
    expect(evaluate(cmd('git log --oneline'), { stored: [git] }).verdict).toBe('allow');
    expect(evaluate(cmd('gitx status'), { stored: [git] }).verdict).toBe('ask');
    expect(evaluate(cmd('git status; rm x'), { stored: [git] }).verdict).toBe('ask');
    expect(evaluate(cmd('git status\nrm x'), { stored: [git] }).verdict).toBe('ask');
    expect(evaluate(cmd('git log $(rm -rf ~)'), { stored: [git] }).verdict).toBe('ask');
    expect(evaluate(cmd('git log > ~/.bashrc'), { stored: [git] }).verdict).toBe('ask');
  });

  it('does not let an exact segment rule cover a segment whose here-document it cannot see', () => {
    const exact: PermissionRule = { tool: 'run_command', match: 'exact', pattern: 'sh <<EOF', effect: 'allow', by: 'ana' };
    expect(evaluate(cmd('sh <<EOF\nrm -rf ~/work\nEOF'), { stored: [exact] }).verdict).toBe('ask');
    const cat = decide(cmd('cat notes.txt'), 'allow_forever', 'cat *');
    expect(evaluate(cmd('cat <<EOF\nhello\nEOF'), { stored: [cat] }).verdict).toBe('allow');
    expect(evaluate(cmd('cat <<EOF | sh\nrm -rf ~\nEOF'), { stored: [cat] }).verdict).toBe('ask');
  });

  it('splits subshells too: every command inside must be covered', () => {
    const cd = decide(cmd('cd src'), 'allow_forever', 'cd *');
    expect(evaluate(cmd('(cd src && make)'), { stored: [cd] }).verdict).toBe('ask');
    expect(evaluate(cmd('(cd src)'), { stored: [cd] }).verdict).toBe('allow');
  });

  it('never widens an exact rule into a prefix', () => {
    const exact = decide(cmd('make'), 'allow_forever');
    expect(exact).toMatchObject({ match: 'exact', pattern: 'make' });
    expect(evaluate(cmd('make install'), { stored: [exact] }).verdict).toBe('ask');
  });

  it('denies a compound command when any one segment is denied', () => {
    const deny = decide(cmd('rm -rf tmp'), 'deny_forever', 'rm *');
    expect(evaluate(cmd('ls && rm a'), { stored: [deny] }).verdict).toBe('deny');
    expect(evaluate(cmd('ls && rmdir a'), { stored: [deny] }).verdict).toBe('ask');
  });
});

describe('evaluatePermission: file tools', () => {
  it('covers the exact path only, resolving relative paths against the workspace', () => {
    const rule = ruleFromDecision(declared(file('write_file', 'src/a.ts')), 'allow_forever', undefined, 'ana', { workspace: WS });
    expect(rule).toMatchObject({ ok: true, rule: { match: 'path', pattern: `${WS}/src/a.ts` } });
    const stored = [(rule as { rule: PermissionRule }).rule];
    expect(evaluate(file('write_file', `${WS}/src/a.ts`), { stored }).verdict).toBe('allow');
    expect(evaluate(file('write_file', './src/../src/a.ts'), { stored }).verdict).toBe('allow');
    expect(evaluate(file('write_file', 'src/b.ts'), { stored }).verdict).toBe('ask');
    expect(evaluate(file('edit_file', 'src/a.ts'), { stored }).verdict).toBe('ask');
  });

  it('covers a chosen directory and what is under it, not a sibling with the same prefix', () => {
    const made = ruleFromDecision(declared(file('write_file', 'src/lib/a.ts')), 'allow_session', 'src/', 'ana', { workspace: WS });
    const session = [(made as { rule: PermissionRule }).rule];
    expect(session[0]).toMatchObject({ match: 'prefix', pattern: `${WS}/src/` });
    expect(evaluate(file('write_file', 'src/deep/er/x.ts'), { session }).verdict).toBe('allow');
    expect(evaluate(file('write_file', 'src-old/x.ts'), { session }).verdict).toBe('ask');
    expect(evaluate(file('write_file', 'README.md'), { session }).verdict).toBe('ask');
  });

  it('covers the whole tool with "*"', () => {
    const made = ruleFromDecision(declared(file('delete_lines', 'a.ts')), 'allow_forever', '*', 'ana', { workspace: WS });
    const stored = [(made as { rule: PermissionRule }).rule];
    expect(evaluate(file('delete_lines', '/anywhere/else.ts'), { stored }).verdict).toBe('allow');
  });

  it("treats self_clone's target as its path", () => {
    expect(evaluate({ tool: 'self_clone', args: { target: '/backups/copy' }, danger: 'dangerous' }).scopes).toEqual(['/backups/copy', '/backups/', '*']);
  });

  it('offers only the parent directory for a path outside the workspace', () => {
    expect(evaluate(file('write_file', '/tmp/granted/x.txt')).scopes).toEqual(['/tmp/granted/x.txt', '/tmp/granted/', '*']);
  });
});
