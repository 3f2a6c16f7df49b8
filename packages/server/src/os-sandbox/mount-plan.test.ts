import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bwrapArgs } from './bwrap-args.js';
import { probeBwrap } from './bwrap-probe.js';
import { planMounts } from './mount-plan.js';
import { OsSandbox } from './os-sandbox.js';
import { systemSockets } from './system-sockets.js';
import { createServer } from 'node:net';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tandem-mounts-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('planMounts', () => {
  it('mounts shallow first so a credential directory inside a writable home stays hidden', () => {
    const home = join(root, 'home');
    mkdirSync(join(home, '.ssh'), { recursive: true });
    mkdirSync(join(home, '.config', 'gcloud'), { recursive: true });
    writeFileSync(join(home, '.netrc'), 'x');
    const ops = planMounts({ writable: [home], home, hidden: [] });
    expect(ops).toEqual([
      { kind: 'writable', path: home },
      { kind: 'hide-dir', path: join(home, '.ssh') },
      { kind: 'hide-file', path: join(home, '.netrc') },
      { kind: 'hide-dir', path: join(home, '.config', 'gcloud') },
    ]);
  });

  it('never re-opens a hidden location: a writable directory inside one is left out', () => {
    const home = join(root, 'home');
    const data = join(root, 'data');
    mkdirSync(join(home, '.ssh', 'keys'), { recursive: true });
    mkdirSync(join(data, 'sessions'), { recursive: true });
    const ops = planMounts({ writable: [join(home, '.ssh', 'keys'), join(data, 'sessions'), data], home, hidden: [data] });
    expect(ops).toEqual([
      { kind: 'hide-dir', path: data },
      { kind: 'hide-dir', path: join(home, '.ssh') },
    ]);
  });

  it('follows symlinks to the real location and skips what does not exist', () => {
    const real = join(root, 'real-ws');
    mkdirSync(real);
    symlinkSync(real, join(root, 'link-ws'));
    const ops = planMounts({ writable: [join(root, 'link-ws'), join(root, 'missing')], home: join(root, 'no-home'), hidden: [join(root, 'no-data')] });
    expect(ops).toEqual([{ kind: 'writable', path: real }]);
  });
});

describe('bwrapArgs', () => {
  it('builds the read-only root first, then the private /tmp, the binds in order, and the command last', () => {
    const args = bwrapArgs({
      cwd: '/w',
      mounts: [
        { kind: 'writable', path: '/w' },
        { kind: 'hide-dir', path: '/h/.ssh' },
        { kind: 'hide-file', path: '/h/.netrc' },
      ],
      network: false,
      file: '/bin/bash',
      args: ['-c', 'ls'],
    });
    expect(args.slice(0, 3)).toEqual(['--ro-bind', '/', '/']);
    expect(args.indexOf('--tmpfs')).toBeLessThan(args.indexOf('--bind'));
    for (const flag of ['--unshare-pid', '--die-with-parent', '--unshare-net']) expect(args).toContain(flag);
    expect(args.join(' ')).toContain('--cap-drop ALL');
    expect(args.join(' ')).toContain('--bind /w /w --perms 0000 --tmpfs /h/.ssh --remount-ro /h/.ssh --ro-bind /dev/null /h/.netrc');
    expect(args.slice(-6)).toEqual(['--chdir', '/w', '--', '/bin/bash', '-c', 'ls']);
    expect(bwrapArgs({ cwd: '/w', mounts: [], network: true, file: 'x', args: [] })).not.toContain('--unshare-net');
  });
});

describe('OsSandbox state', () => {
  const base = { home: '/nonexistent-home', dataDir: '/nonexistent-data' };

  it('says plainly why it is off, and wraps nothing then', () => {
    const off = new OsSandbox({ ...base, probe: () => ({ ok: false, reason: 'bwrap not found (install bubblewrap: apt-get install bubblewrap)' }) });
    expect(off.active).toBe(false);
    expect(off.describe()).toBe(
      'off: bwrap not found (install bubblewrap: apt-get install bubblewrap) — network limits, protected paths and the block on the server port are not enforced',
    );
    expect(off.wrapperFor(() => ['/w'])).toBeUndefined();
    const disabled = new OsSandbox({ ...base, settings: { enabled: false }, probe: () => ({ ok: true, bwrap: '/usr/bin/bwrap' }) });
    expect(disabled.describe()).toMatch(/^off: turned off in config.json \(commandSandbox.enabled: false\) — .* not enforced$/);
  });

  it('names the network switch and wraps through bwrap with the roots asked at each command', async () => {
    let roots = ['/first'];
    const sandbox = new OsSandbox({ ...base, settings: { network: false }, probe: () => ({ ok: true, bwrap: '/usr/bin/bwrap' }) });
    expect(sandbox.describe()).toBe('bubblewrap (no network)');
    const wrapper = sandbox.wrapperFor(() => roots)!;
    const wrapped = await wrapper.wrap({ file: '/bin/bash', args: ['-c', 'true'], cwd: root });
    expect(wrapped.file).toBe('/usr/bin/bwrap');
    expect(wrapped.args).toContain('--unshare-net');
    roots = [root];
    expect((await wrapper.wrap({ file: '/bin/bash', args: [], cwd: root })).args.join(' ')).toContain(`--bind ${root} ${root}`);
    expect(new OsSandbox({ ...base, socat: '/usr/bin/socat', probe: () => ({ ok: true, bwrap: '/usr/bin/bwrap' }) }).describe()).toBe(
      'bubblewrap (network: ask)',
    );
    expect(new OsSandbox({ ...base, socat: null, probe: () => ({ ok: true, bwrap: '/usr/bin/bwrap' }) }).describe()).toContain('no network: socat not found');
  });

  it('the probe reports macOS and a missing bwrap in words', () => {
    expect(probeBwrap({ network: true, platform: 'darwin' })).toEqual({ ok: false, reason: expect.stringContaining('macOS has no bubblewrap') });
    expect(probeBwrap({ network: true, platform: 'linux', pathEnv: root })).toEqual({ ok: false, reason: expect.stringContaining('bwrap not found') });
  });
});

describe('systemSockets', () => {
  it('finds sockets down to the given depth, skipping the listed directories', async () => {
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    mkdirSync(join(root, 'user'), { recursive: true });
    const paths = [join(root, 'top.sock'), join(root, 'a', 'b', 'deep.sock'), join(root, 'user', 'agent.sock')];
    const servers = paths.map(() => createServer());
    await Promise.all(servers.map((server, i) => new Promise<void>((resolve) => server.listen(paths[i], resolve))));
    writeFileSync(join(root, 'a', 'plain-file'), 'not a socket');
    try {
      expect(systemSockets([root], 3, [join(root, 'user')]).sort()).toEqual([paths[1], paths[0]].sort());
      expect(systemSockets([root], 1, [])).toEqual([paths[0]]);
    } finally {
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    }
  });
});
