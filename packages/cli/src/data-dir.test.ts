import { describe, expect, it } from 'vitest';
import { defaultDataDir as serverDefault } from '@tandem/server';
import { defaultDataDir } from './data-dir.js';

describe('defaultDataDir', () => {
  it("is the server's rule", () => {
    for (const env of [{}, { TANDEM_DATA_DIR: '/tmp/x' }, { TANDEM_DATA_DIR: 'relative/dir' }, { TANDEM_DATA_DIR: '' }]) {
      expect(defaultDataDir(env)).toBe(serverDefault(env));
    }
  });
});
