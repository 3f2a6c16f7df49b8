import { mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webViewerLine } from './web-viewer-line.js';

const built = mkdtempSync(join(tmpdir(), 'tandem-web-line-'));
writeFileSync(join(built, 'index.html'), '<!doctype html>\n');

describe('the web viewer line of tandem serve', () => {
  it('gives a server on every address by this machine name, and says where each token is', () => {
    const line = webViewerLine('http://0.0.0.0:7777', '/srv/tandem', { TANDEM_WEB_DIR: built, TANDEM_TOKEN: 'secret-control' });
    expect(line).toBe(
      `web viewer: http://${hostname()}:7777/ (paste a token into the page: the view token watches, \`cat /srv/tandem/view-token\`; the control token drives, $TANDEM_TOKEN)`,
    );
    expect(line).not.toContain('secret-control');
    expect(webViewerLine('http://[::]:7777', '/d', { TANDEM_WEB_DIR: built })).toContain(`http://${hostname()}:7777/ `);
    expect(webViewerLine('http://[::1]:7777', '/d', { TANDEM_WEB_DIR: built })).toContain('http://[::1]:7777/ ');
  });
});
