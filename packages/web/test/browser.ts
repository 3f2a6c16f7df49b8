import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium (`apt-get install chromium`): CHROMIUM_PATH, /usr/bin/chromium, or on the PATH. */
export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  for (const path of candidates) if (path && existsSync(path)) return path;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A headless chromium driven by playwright-core, or the reason there is none. The tests skip
 * loudly (console.warn) when chromium is missing or cannot start; CI installs it (.ci/run).
 */
export async function launchChromium(): Promise<{ browser: Browser } | { reason: string }> {
  const executablePath = findChromium();
  if (!executablePath) return { reason: 'chromium is not installed (apt-get install -y chromium, or set CHROMIUM_PATH)' };
  try {
    // --no-sandbox: CI and these machines run as root, where chromium's own sandbox cannot start.
    const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    return { browser };
  } catch (err) {
    return { reason: `chromium at ${executablePath} did not start: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}` };
  }
}
