// The first-screen bench's baseline: a node process that loads blessed (the TUI's own copy) and
// draws one screen holding the status line words the bench waits for, then waits to be stopped.
// What any blessed TUI pays before its first screen: node's start, blessed's modules, one draw.
import { createRequire } from 'node:module';

// The TUI's package, next to this one (packages/bench/dist → packages/tui); nothing else is loaded.
const require = createRequire(new URL('../../tui/package.json', import.meta.url));
/** What this file uses of blessed (the bench has no types for the TUI's dependency). */
interface Screen {
  key(keys: string[], handler: () => void): void;
  render(): void;
  destroy(): void;
}
const blessed = require('blessed') as { screen(options: object): Screen; box(options: object): unknown };
const screen = blessed.screen({ smartCSR: true, fullUnicode: true });
blessed.box({ parent: screen, top: 0, left: 0, width: '100%', height: '100%-1', content: 'a transcript' });
blessed.box({ parent: screen, bottom: 0, left: 0, width: '100%', height: 1, content: 'bench │ driver │ idle' });
screen.key(['C-c', 'q'], () => {
  screen.destroy();
  process.exit(0);
});
screen.render();
