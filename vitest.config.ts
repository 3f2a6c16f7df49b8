import { defineConfig } from 'vitest/config';

// One run for the whole monorepo. Workspace packages resolve to their TypeScript
// sources through the "tandem-source" export condition, so tests never run stale dist.
// CI asks for a JSON report beside the normal output (to print its totals line).
const jsonReport = process.env.TANDEM_TEST_REPORT;

export default defineConfig({
  resolve: { conditions: ['tandem-source'] },
  ssr: { resolve: { conditions: ['tandem-source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    ...(jsonReport ? { reporters: ['default', 'json'], outputFile: { json: jsonReport } } : {}),
  },
});
