import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { emptyLedger, type Ledger, type LedgerStore, writeFileAtomic } from '@tandem/core';

/**
 * The commander's ledger kept in `<session dir>/ledger.json` (SPEC G4): read once when the
 * session opens, written atomically after each change, one write at a time in change order. A
 * write that fails is logged; the ledger in memory stays right and the next change writes again.
 */
export class LedgerFile implements LedgerStore {
  private ledger: Ledger;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly logger: Logger,
  ) {
    this.ledger = readLedger(path, logger);
  }

  get(): Ledger {
    return this.ledger;
  }

  set(ledger: Ledger): void {
    this.ledger = ledger;
    const text = `${JSON.stringify(ledger, null, 1)}\n`;
    this.writing = this.writing
      .then(() => writeFileAtomic(this.path, text))
      .catch((err: unknown) => this.logger.error({ err, path: this.path }, 'could not write the ledger'));
  }

  /** Resolves once every change so far is on disk (or failed and was logged). */
  flushed(): Promise<void> {
    return this.writing;
  }
}

function readLedger(path: string, logger: Logger): Ledger {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return emptyLedger();
  }
  try {
    const parsed = JSON.parse(text) as Partial<Ledger>;
    if (Array.isArray(parsed.tasks)) return { tasks: parsed.tasks };
  } catch {
    // fall through
  }
  logger.warn({ path }, 'the ledger file is not valid JSON; starting an empty ledger');
  return emptyLedger();
}
