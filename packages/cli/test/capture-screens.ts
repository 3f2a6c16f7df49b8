import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tandemShellLine, REPO_ROOT } from './cli-runner.js';
import { startServerFixture } from './server-fixture.js';
import { Tmux } from './tmux.js';

// Regenerates packages/tui/SCREEN.txt and SCREEN-permission.txt (the README's captures): a real
// server, the fake model, a driver `ana@laptop` in a 110x30 tmux pane and a viewer `bo@desktop`
// elsewhere; one turn that reads a file, asks to run the tests (the dialog is captured before
// F2 gives it the keys), runs them (allowed for the session) and ends with the run summary box.
// Run: node --conditions=tandem-source --import tsx packages/cli/test/capture-screens.ts

const fixture = await startServerFixture('proj');
const tmux = new Tmux();
try {
  const { server, sessionId, tokens, dataDir, fake, project } = fixture;
  await writeFile(join(project.path, 'package.json'), '{ "name": "calc", "type": "module", "scripts": { "test": "node --test" } }\n');
  await writeFile(
    join(project.path, 'calc.test.js'),
    "import test from 'node:test';\nimport assert from 'node:assert';\ntest('adds', () => assert.equal(1 + 1, 2));\n",
  );
  const env = ['-e', 'NCURSES_NO_UTF8_ACS=1', '-e', 'TERM=xterm-256color'];
  tmux.run([
    'new-session',
    '-d',
    '-x',
    '110',
    '-y',
    '30',
    '-s',
    'driver',
    ...env,
    tandemShellLine(['attach', sessionId, '--url', server.url, '--token', tokens.control, '--name', 'ana@laptop']),
  ]);
  tmux.start('viewer', tandemShellLine(['attach', sessionId, '--url', server.url, '--viewer', '--data-dir', dataDir.path, '--name', 'bo@desktop']));
  await tmux.waitFor('driver', (s) => /driver │ .*idle/.test(s) && s.includes('bo@desktop'), 45_000);

  fake.enqueue(
    { text: 'I will look at the project, then run its tests.', toolCalls: [{ name: 'read_file', args: { path: 'package.json' } }] },
    { toolCalls: [{ name: 'run_command', args: { command: 'npm test' } }] },
    { chunks: ['The test suite passes: `npm test` ran 1 test (`adds`) ', 'and it succeeded.'], chunkDelayMs: 20 },
  );
  tmux.type('driver', 'run the tests and tell me if anything is broken', 'Enter');
  // The dialog as it first shows: the keys are still the input line's (F2 hands them over).
  const asking = await tmux.waitFor(
    'driver',
    (s) => s.includes('Permission needed: run_command') && /F2 or Enter on (the )?empty line: answer here/.test(s),
    30_000,
  );
  await writeFile(join(REPO_ROOT, 'packages/tui/SCREEN-permission.txt'), asking);
  await tmux.answerPermission('driver', 's');
  const screen = await tmux.waitFor('driver', (s) => s.includes('Final answer produced') && /driver │ idle/.test(s));
  await writeFile(join(REPO_ROOT, 'packages/tui/SCREEN.txt'), screen);
  process.stdout.write(screen);
} finally {
  tmux.kill();
  await fixture.close();
}
