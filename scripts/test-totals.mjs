// Prints the closing line "N passed, N failed" from a vitest JSON report, after the names and
// first message lines of any failed tests (so the end of a CI log says what failed).
// Usage: node scripts/test-totals.mjs <report.json> <exit status of the run>
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [file, status = '0'] = process.argv.slice(2);
if (!file || !existsSync(file)) {
  // The run never reached the test runner (set-up or build failed): count that as one failure.
  console.log(`0 passed, ${status === '0' ? 0 : 1} failed`);
  process.exit(0);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
for (const suite of report.testResults ?? []) {
  const where = relative(process.cwd(), suite.name ?? '');
  const failed = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
  if (failed.length === 0 && suite.status === 'failed') {
    console.log(`FAILED ${where}: ${firstLines(suite.message)}`);
  }
  for (const test of failed) {
    console.log(`FAILED ${where} > ${test.fullName}: ${firstLines((test.failureMessages ?? []).join('\n'))}`);
  }
}
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites && !report.numFailedTests ? report.numFailedTestSuites : 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);

function firstLines(text) {
  return String(text ?? '')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, 6)
    .join('\n    ');
}
