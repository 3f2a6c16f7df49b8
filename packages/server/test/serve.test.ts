import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { createServer, type AddressInfo } from 'node:net';
import { loadTokens, readServerInfo, runServe } from '../src/index.js';
import { parseServeArgs } from '../src/serve/run-serve.js';
import { connectClient } from './server-harness.js';

const repoRoot = resolve(import.meta.dirname, '../../..');
const dirs: TempDir[] = [];
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) await dir.cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await makeTempDir('tandem-serve-');
  dirs.push(dir);
  return dir.path;
}

/** A stand-in for the built web page (packages/web/dist may not be built when this runs). */
async function builtPage(): Promise<string> {
  const dir = await tempDir();
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>page-for-the-serve-test</title>\n');
  return dir;
}

function startBin(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, ['--conditions=tandem-source', '--import', 'tsx', 'packages/server/src/bin.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, TANDEM_TOKEN: '', TANDEM_VIEW_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  const printed: string[] = [];
  const waiting: Array<() => void> = [];
  lines.on('line', (line) => {
    printed.push(line);
    for (const wake of waiting.splice(0)) wake();
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  /** The n-th line of stdout (0 = the first), once printed. */
  const line = (n: number) =>
    new Promise<string>((resolveLine, reject) => {
      const check = () => (printed.length > n ? resolveLine(printed[n] as string) : waiting.push(check));
      check();
      void exited.then((code) => reject(new Error(`tandem serve exited with ${code} before printing line ${n + 1}`)));
    });
  const firstLine = line(0);
  firstLine.catch(() => undefined); // awaited by tests that expect a line; others only watch the exit
  return { child, firstLine, line, printed, exited };
}

describe('tandem serve', () => {
  it('prints the listening line then the web page line, keeps 0600 tokens, records and removes server.json', async () => {
    const dataDir = join(await tempDir(), 'data');
    const {
      child,
      firstLine,
      line: lineAt,
      printed,
      exited,
    } = startBin(['serve', '--port', '0', '--data-dir', dataDir], { TANDEM_WEB_DIR: await builtPage() });
    const line = await firstLine;
    expect(line).toMatch(/^tandem listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.slice('tandem listening on '.length);
    // The second line: the page's address and how to get in (where the tokens are, never a token).
    const web = await lineAt(1);
    expect(web).toBe(
      `web viewer: ${url}/ (paste a token into the page: the view token watches, \`cat ${join(dataDir, 'view-token')}\`; the control token drives, \`cat ${join(dataDir, 'token')}\`)`,
    );
    const page = await fetch(web.split(' ')[2] as string);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('page-for-the-serve-test');

    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    for (const file of ['token', 'view-token']) {
      expect((await stat(join(dataDir, file))).mode & 0o777).toBe(0o600);
    }
    const info = await readServerInfo(dataDir);
    expect(info?.url).toBe(url);
    expect(info?.pid).toBe(child.pid);
    expect((await stat(join(dataDir, 'server.json'))).mode & 0o777).toBe(0o600);

    // The generated tokens are the ones the server accepts; loading again gives the same.
    const tokens = await loadTokens(dataDir, {});
    expect(tokens.control).toBe((await readFile(join(dataDir, 'token'), 'utf8')).trim());
    const client = await connectClient(url, 'probe', tokens.control);
    const reply = await client.request('session:list', {});
    expect(reply.ok).toBe(true);
    client.close();

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(printed).toEqual([line, web]);
    for (const printedLine of printed) for (const token of [tokens.control, tokens.view]) expect(printedLine).not.toContain(token);
    expect(await readServerInfo(dataDir, { checkAlive: false })).toBeUndefined();
  });

  it('takes tokens from TANDEM_TOKEN / TANDEM_VIEW_TOKEN', async () => {
    const dataDir = await tempDir();
    const { firstLine, line } = startBin(['serve', '--port', '0', '--data-dir', dataDir], {
      TANDEM_TOKEN: 'env-control',
      TANDEM_VIEW_TOKEN: 'env-view',
      TANDEM_WEB_DIR: await builtPage(),
    });
    const url = (await firstLine).slice('tandem listening on '.length);
    // The page line names the variables the tokens came from, not their values.
    const web = await line(1);
    expect(web).toBe(`web viewer: ${url}/ (paste a token into the page: the view token watches, $TANDEM_VIEW_TOKEN; the control token drives, $TANDEM_TOKEN)`);
    const viewer = await connectClient(url, 'v', 'env-view');
    const create = await viewer.request('session:create', {});
    expect(create.ok === false && create.error.code).toBe('forbidden');
    viewer.close();
    await expect(connectClient(url, 'x', 'not-it')).rejects.toThrow('unauthorized');
  });

  it('says when the web page is not built, instead of an address that answers 503', async () => {
    const dataDir = await tempDir();
    const { firstLine, line } = startBin(['serve', '--port', '0', '--data-dir', dataDir], { TANDEM_WEB_DIR: await tempDir() });
    const url = (await firstLine).slice('tandem listening on '.length);
    expect(await line(1)).toBe(`web viewer: not built (run \`pnpm build\` in the Tandem checkout); clients connect to ${url} as usual`);
  });

  it('says plainly when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as AddressInfo).port;
    try {
      await expect(
        runServe({ port, host: '127.0.0.1', dataDir: await tempDir(), handleSignals: false, env: { TANDEM_LOG_FILE: '-', TANDEM_LOG_LEVEL: 'silent' } }),
      ).rejects.toThrow(`port ${port} on 127.0.0.1 is already in use`);
    } finally {
      blocker.close();
    }
  });

  it('parses its options with the documented defaults', () => {
    expect(parseServeArgs(['serve'], { TANDEM_DATA_DIR: '/srv/tandem' })).toEqual({ host: '127.0.0.1', port: 7777, dataDir: '/srv/tandem' });
    expect(parseServeArgs(['--host', '0.0.0.0', '--port', '0', '--data-dir', '/x'], {})).toEqual({ host: '0.0.0.0', port: 0, dataDir: '/x' });
    expect(() => parseServeArgs(['--port', 'abc'], {})).toThrow();
  });
});
