import { describe, expect, it } from 'vitest';
import { RemoteClients } from './remote-clients.js';

describe('RemoteClients', () => {
  it('drops the sockets of a node that is gone, and of a node restarted under the same id', () => {
    const clients = new RemoteClients();
    clients.add('s1', { nodeId: 'b', instance: 'b-first' });
    clients.add('s2', { nodeId: 'b', instance: 'b-first' });
    clients.add('s3', { nodeId: 'c', instance: 'c-first' });
    expect(clients.nodeIds().sort()).toEqual(['b', 'c']);
    // Both alive as they were: nothing to drop.
    expect(
      clients.dropDead(
        new Map([
          ['b', 'b-first'],
          ['c', 'c-first'],
        ]),
      ),
    ).toEqual([]);
    // b restarted (a new process under its id): its old sockets are gone; c died.
    expect(clients.dropDead(new Map([['b', 'b-second']])).sort()).toEqual(['s1', 's2', 's3']);
    expect(clients.nodeIds()).toEqual([]);
  });

  it('forgets a socket its node reported disconnected', () => {
    const clients = new RemoteClients();
    clients.add('s1', { nodeId: 'b', instance: 'x' });
    clients.remove('s1');
    expect(clients.dropDead(new Map())).toEqual([]);
  });
});
