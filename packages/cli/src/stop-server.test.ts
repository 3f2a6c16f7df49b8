import { describe, expect, it } from 'vitest';
import { processAlive } from '@tandem/server/local';
import { hostOf, portOf } from './stop-server.js';

describe('stop-server helpers', () => {
  it('reads host and port of a server URL as --host / --port take them', () => {
    expect([hostOf('http://127.0.0.1:7777'), portOf('http://127.0.0.1:7777')]).toEqual(['127.0.0.1', 7777]);
    expect([hostOf('http://[::1]:41234'), portOf('http://[::1]:41234')]).toEqual(['::1', 41234]);
    expect(hostOf('http://0.0.0.0:7777')).toBe('0.0.0.0');
    expect(portOf('http://localhost')).toBeUndefined();
  });

  it('knows a live process from a gone one', () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(2 ** 22 + 12345)).toBe(false);
  });
});
