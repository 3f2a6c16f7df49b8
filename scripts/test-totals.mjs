// Prints the closing line "N passed, N failed" from a vitest JSON report.
// Usage: node scripts/test-totals.mjs <report.json> <exit status of the run>
import { existsSync, readFileSync } from 'node:fs';

const [file, status = '0'] = process.argv.slice(2);
if (!file || !existsSync(file)) {
  // The run never reached the test runner (set-up or build failed): count that as one failure.
  console.log(`0 passed, ${status === '0' ? 0 : 1} failed`);
  process.exit(0);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites && !report.numFailedTests ? report.numFailedTestSuites : 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
