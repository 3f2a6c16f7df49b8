import { join } from 'node:path';
import pino, { type Logger } from 'pino';

/**
 * The server's pino logger: `<dataDir>/server.log`, or stderr when TANDEM_LOG_FILE is `-`
 * (or another file when it names one). Never stdout: its first line is the contract.
 */
export function createServerLogger(dataDir: string, env: NodeJS.ProcessEnv = process.env): Logger {
  const wanted = env.TANDEM_LOG_LEVEL || 'info';
  const level = wanted in pino.levels.values || wanted === 'silent' ? wanted : 'info';
  const target = env.TANDEM_LOG_FILE;
  const destination =
    target === '-' ? pino.destination({ dest: 2, sync: true }) : pino.destination({ dest: target || join(dataDir, 'server.log'), mkdir: true, sync: true });
  return pino({ level, base: { pid: process.pid } }, destination);
}
