import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '@tandem/testkit';
import { execFile } from 'node:child_process';
import { NODE_ARGS, REPO_ROOT } from './cli-runner.js';

const EVERYTHING = fileURLToPath(new URL('../../server/node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const SECRET = 'tok-cli-secret-98765';

// `tandem mcp add | list | remove` against a real data directory; `list` without a running
// server starts the servers itself to report their live status.
/** `tandem ARGS` from source; a loaded 2-core machine may need long for tsx to start, so no short limit. */
function runTandem(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...NODE_ARGS, ...args], { cwd: REPO_ROOT, env }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('tandem mcp', () => {
  it('adds a server with its env secret encrypted, never printed; lists it connected with its tools; removes it and its secret', async () => {
    await using data = await makeTempDir('tandem-mcp-cli-');
    await using folder = await makeTempDir('tandem-mcp-ws-');
    const dd = ['--data-dir', data.path];
    const env = { ...process.env, TANDEM_DATA_DIR: '' };
    const added = await runTandem(['mcp', 'add', 'everything', '--env', `API_TOKEN=${SECRET}`, ...dd, '--', process.execPath, EVERYTHING, 'stdio'], env);
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(added.stdout).toContain('added MCP server "everything"');
    expect(added.stdout).toContain('API_TOKEN');
    expect(added.stdout).not.toContain(SECRET);
    for (const file of readdirSync(data.path)) expect(readFileSync(join(data.path, file)).includes(SECRET)).toBe(false);

    const again = await runTandem(['mcp', 'add', 'everything', ...dd, '--', 'true'], env);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('already in');

    const listed = await runTandem(['mcp', 'list', '--json', '--cwd', folder.path, ...dd], env);
    expect(listed.code).toBe(0);
    const servers = JSON.parse(listed.stdout) as Array<{ name: string; status: string; tools: string[] }>;
    expect(servers).toEqual([
      expect.objectContaining({ name: 'everything', scope: 'user', status: 'connected', tools: expect.arrayContaining(['mcp__everything__echo']) }),
    ]);

    const removed = await runTandem(['mcp', 'remove', 'everything', ...dd], env);
    expect(removed).toMatchObject({ code: 0 });
    expect(readFileSync(join(data.path, 'secrets.json'), 'utf8')).not.toContain('mcp/everything/');
    const gone = await runTandem(['mcp', 'remove', 'everything', ...dd], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('no user MCP server named "everything"');
  }, 600_000);
});

describe("tandem mcp add in Claude Code's syntax, and add-json", () => {
  it('takes --transport http|sse URL with "Name: value" headers, --transport stdio with -e, and one entry as JSON; secrets sealed', async () => {
    await using data = await makeTempDir('tandem-mcp-claude-');
    const dd = ['--data-dir', data.path];
    const env = { ...process.env, TANDEM_DATA_DIR: '' };
    const http = await runTandem(
      ['mcp', 'add', '--transport', 'http', 'sentry', 'https://mcp.example.com/mcp', '--header', `Authorization: Bearer ${SECRET}`, ...dd],
      env,
    );
    expect(http, http.stderr).toMatchObject({ code: 0, stderr: '' });
    const sse = await runTandem(['mcp', 'add', 'legacy', '--transport', 'sse', 'https://sse.example.com/sse', '-s', 'user', ...dd], env);
    expect(sse.code, sse.stderr).toBe(0);
    const stdio = await runTandem(['mcp', 'add', '--transport', 'stdio', '-e', 'K=v', 'local', ...dd, '--', process.execPath, EVERYTHING, 'stdio'], env);
    expect(stdio.code, stdio.stderr).toBe(0);
    const json = await runTandem(
      ['mcp', 'add-json', 'fromjson', JSON.stringify({ type: 'http', url: 'https://j.example.com/mcp', headers: { 'X-Key': `${SECRET}-2` } }), ...dd],
      env,
    );
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toContain('X-Key');

    const file = JSON.parse(readFileSync(join(data.path, 'mcp.json'), 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> };
    expect(file.mcpServers.sentry).toEqual({
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: '${secret:mcp/sentry/header/Authorization}' },
    });
    expect(file.mcpServers.legacy).toEqual({ type: 'sse', url: 'https://sse.example.com/sse' });
    expect(file.mcpServers.local).toEqual({ command: process.execPath, args: [EVERYTHING, 'stdio'], env: { K: '${secret:mcp/local/env/K}' } });
    expect(file.mcpServers.fromjson).toMatchObject({
      type: 'http',
      url: 'https://j.example.com/mcp',
      headers: { 'X-Key': '${secret:mcp/fromjson/header/X-Key}' },
    });
    for (const name of readdirSync(data.path)) expect(readFileSync(join(data.path, name)).includes(SECRET)).toBe(false);
  }, 600_000);

  it('says what is wrong: no URL, two URLs, project scope, bad JSON', async () => {
    await using data = await makeTempDir('tandem-mcp-claude-bad-');
    const dd = ['--data-dir', data.path];
    const env = { ...process.env, TANDEM_DATA_DIR: '' };
    const noUrl = await runTandem(['mcp', 'add', '--transport', 'http', 'x', ...dd], env);
    expect(noUrl.code).not.toBe(0);
    expect(noUrl.stderr).toContain('a remote server takes one URL after its name');
    const project = await runTandem(['mcp', 'add', '-s', 'project', 'x', ...dd, '--', 'true'], env);
    expect(project.code).not.toBe(0);
    expect(project.stderr).toContain('.mcp.json');
    const badJson = await runTandem(['mcp', 'add-json', 'x', '{"type":"http"', ...dd], env);
    expect(badJson.code).not.toBe(0);
    expect(badJson.stderr).toContain('the JSON does not parse');
    const noTarget = await runTandem(['mcp', 'add-json', 'x', '{"type":"http"}', ...dd], env);
    expect(noTarget.code).not.toBe(0);
    expect(noTarget.stderr).toContain('needs "command" (a local server) or "url" (a remote one)');
  }, 600_000);
});

describe('formatServers', () => {
  it('prints one row per server with its status and reason', async () => {
    const { formatServers } = await import('../src/commands/mcp.js');
    const text = formatServers([
      { name: 'everything', scope: 'user', status: 'connected', tools: ['mcp__everything__echo'] },
      { name: 'proj', scope: 'project', status: 'needs_approval', reason: 'a driver must approve its launch', tools: [] },
    ]);
    expect(text).toMatch(/everything\s+user\s+connected\s+1/);
    expect(text).toMatch(/proj\s+project\s+needs_approval\s+0\s+a driver must approve its launch/);
    expect(formatServers([])).toContain('no MCP servers');
  });
});

describe('formatSkills', () => {
  it('prints each skill folder with its status, root and why', async () => {
    const { formatSkills } = await import('../src/commands/skills.js');
    const text = formatSkills([
      { name: 'hello', status: 'ok', root: 'project .tandem/skills', dir: '/w/.tandem/skills/hello', command: './greet.sh' },
      { name: 'evil', status: 'quarantined', root: 'global ~/.claude/skills', dir: '/h/.claude/skills/evil', reason: 'quarantined: flagged' },
    ]);
    expect(text).toMatch(/hello\s+ok\s+project \.tandem\/skills\s+tool skill__hello: \.\/greet\.sh/);
    expect(text).toMatch(/evil\s+quarantined\s+global ~\/\.claude\/skills\s+quarantined: flagged/);
    expect(formatSkills([])).toContain('no skills');
  });
});
