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
    // Bounds for a stuck test, not expectations: tests wait on events and screen lines, and a
    // passing run never reaches these. They are wide because a loaded 2-core machine can make a
    // real server, pty or tmux session ten times slower than an idle one.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    ...(jsonReport ? { reporters: ['default', 'json'], outputFile: { json: jsonReport } } : {}),
  },
});
