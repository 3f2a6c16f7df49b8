import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tandemShellLine } from './cli-runner.js';
import { startServerFixture, type ServerFixture } from './server-fixture.js';
import { Tmux } from './tmux.js';

// What a session costs, as a person sees it in a real terminal against the real server: the run
// summary's last line with the cached tokens and the turn's cost, and /cost with the session's
// total per model. The model is openai/gpt-4.1-mini (priced in the catalog) on the scripted
// server, which reports the prefix a request shares with the one before as cached tokens.

let fixture: ServerFixture;
const tmux = new Tmux();
const SIZE = { columns: 160, rows: 50 };

beforeAll(async () => {
  fixture = await startServerFixture('cost-test');
  const { server, sessionId, tokens } = fixture;
  tmux.start('driver', tandemShellLine(['attach', sessionId, '--url', server.url, '--token', tokens.control, '--name', 'ana']), {}, SIZE);
  await tmux.waitFor('driver', (s) => /driver │ .*idle/.test(s), 180_000);
}, 600_000);

afterAll(async () => {
  tmux.kill();
  await fixture?.close();
});

describe('cost in the TUI', () => {
  it('the run summary shows cached tokens and the cost; /cost shows the session per model', async () => {
    fixture.fake.enqueue({ text: 'First answer.' });
    tmux.type('driver', 'hello there', 'Enter');
    await tmux.waitFor('driver', (s) => s.includes('First answer.') && /Final answer produced · [\d,]+ in \/ [\d,]+ out tokens · \$0\.\d{4}/.test(s));

    fixture.fake.enqueue({ text: 'Second answer.' });
    tmux.type('driver', 'and once more', 'Enter');
    const screen = await tmux.waitFor(
      'driver',
      (s) => s.includes('Second answer.') && /Final answer produced · [\d,]+ in \([\d,]+ cached, 0 written\)/.test(s),
    );
    expect(screen).toMatch(/cached, 0 written\) \/ [\d,]+ out tokens · \$0\.\d{4}/);

    tmux.type('driver', '/cost', 'Enter');
    const cost = await tmux.waitFor('driver', (s) => s.includes('cost of this session: $') && s.includes('openai/gpt-4.1-mini: $'));
    expect(cost).toMatch(
      /cost of this session: \$0\.\d{4} over 2 turns · [\d,]+ in \([\d,]+ cached, 0 written\) \/ [\d,]+ out tokens · \d+% of the prompt read from the cache/,
    );
  }, 600_000);
});
