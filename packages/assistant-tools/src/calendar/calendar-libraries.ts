import type { createDAVClient } from 'tsdav';
import { loadOnce, type OnceLoader } from '@tandem/ai';

/**
 * The calendar's libraries, loaded on first use: tsdav (CalDAV, ~8 MB of resident memory) and
 * ical.js (~1.6 MB), which a server whose sessions never read a calendar should not carry.
 */
export const davLibrary: OnceLoader<{ createDAVClient: typeof createDAVClient }> = loadOnce(async () => {
  const { createDAVClient } = await import('tsdav');
  return { createDAVClient };
});

export const icalLibrary = loadOnce(async () => (await import('ical.js')).default);
