import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staticPackageImports } from '@tandem/testkit';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));

/** The packages `file` loads. */
const staticPackages = (entry: string) => new Set(staticPackageImports(SRC, entry).keys());

describe('@tandem/server/local', () => {
  it("loads only node's own modules and the provider table: a terminal that reads the server's files starts without the server", () => {
    const packages = [...staticPackages('local.ts')];
    expect(packages.filter((name) => !name.startsWith('node:'))).toEqual(['@tandem/ai/registry']);
  });
});
