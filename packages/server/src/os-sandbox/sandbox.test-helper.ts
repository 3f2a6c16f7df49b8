import { OsSandbox } from './os-sandbox.js';
import { probeBwrap } from './bwrap-probe.js';

/**
 * Whether bubblewrap can run here, probed once per test file. Suites that need it skip with a
 * loud line when it cannot (CI installs bubblewrap, so there they always run).
 */
export const BWRAP = probeBwrap({ network: false });

export function bwrapSkipNotice(suite: string): void {
  if (!BWRAP.ok) console.warn(`\n!!! SKIPPED ${suite}: bubblewrap cannot run here: ${BWRAP.reason} !!!\n`);
}

/** An OS sandbox for tests: the credential list of `home`, `dataDir` hidden. */
export function testSandbox(options: { home: string; dataDir: string; network?: boolean; writable?: string[]; socketScan?: () => string[] }): OsSandbox {
  return new OsSandbox({
    home: options.home,
    dataDir: options.dataDir,
    ...(options.socketScan ? { socketScan: options.socketScan } : {}),
    settings: { network: options.network ?? true, ...(options.writable ? { writable: options.writable } : {}) },
    probe: () => BWRAP,
  });
}
