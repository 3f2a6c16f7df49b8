import { describe, expect, it } from 'vitest';
import { plainTable } from './plain-table.js';

describe('plainTable', () => {
  it('aligns columns, leaves the last one as it is and never ends a line with spaces', () => {
    expect(
      plainTable([
        ['NAME', 'STATUS', 'NOTE'],
        ['a', 'connected', ''],
        ['longer-name', 'ok', 'x y'],
      ]),
    ).toBe('NAME         STATUS     NOTE\na            connected\nlonger-name  ok         x y\n');
  });
});
