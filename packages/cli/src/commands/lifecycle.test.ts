import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '@tandem/testkit';
import { stopLocal } from './lifecycle.js';
import { showStatus } from './status.js';

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

describe('with no server running', () => {
  it('stop says there is nothing to stop (exit 0); status says none runs and how to start one (exit 1)', async () => {
    await using dir = await makeTempDir('tandem-none-');
    const stop = sink();
    expect(await stopLocal({ dataDir: dir.path, port: 0, out: stop.stream })).toBe(0);
    expect(stop.text()).toBe(`no tandem server is running for ${dir.path}; nothing to stop\n`);
    const status = sink();
    expect(await showStatus({ dataDir: dir.path, out: status.stream })).toBe(1);
    expect(status.text()).toBe(`no tandem server is running for ${dir.path}; \`tandem\` starts one (or \`tandem serve\` in the foreground)\n`);
    const json = sink();
    expect(await showStatus({ dataDir: dir.path, json: true, out: json.stream })).toBe(1);
    expect(JSON.parse(json.text())).toEqual({ up: false, dataDir: dir.path });
  });
});
