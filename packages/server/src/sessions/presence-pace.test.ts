import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PACED_PRESENCE_FROM, PRESENCE_INTERVAL_MS, PresencePace, presenceInterval } from './presence-pace.js';

describe('PresencePace', () => {
  let sent: number[];
  let size: number;
  let pace: PresencePace;
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    size = 0;
    pace = new PresencePace(
      () => sent.push(size),
      () => Date.now(),
    );
  });
  afterEach(() => vi.useRealTimers());

  it('sends every change at once for a small audience', () => {
    for (size = 1; size < PACED_PRESENCE_FROM; size++) pace.changed(size);
    expect(sent).toEqual(Array.from({ length: PACED_PRESENCE_FROM - 1 }, (_, i) => i + 1));
  });

  it('sends a burst of attaches to a large audience as one list now and the latest list once the interval passed', () => {
    size = PACED_PRESENCE_FROM;
    pace.changed(size);
    expect(sent).toEqual([PACED_PRESENCE_FROM]);
    for (size = PACED_PRESENCE_FROM + 1; size <= 1000; size++) pace.changed(size);
    size = 1000;
    expect(sent).toEqual([PACED_PRESENCE_FROM]);
    vi.advanceTimersByTime(presenceInterval(PACED_PRESENCE_FROM + 1)); // the wait is set by the first change that finds a list recently sent
    expect(sent).toEqual([PACED_PRESENCE_FROM, 1000]);
    vi.advanceTimersByTime(100 * PRESENCE_INTERVAL_MS);
    expect(sent).toHaveLength(2);
  });

  it('waits longer between lists the larger the audience', () => {
    expect(presenceInterval(PACED_PRESENCE_FROM - 1)).toBe(0);
    expect(presenceInterval(PACED_PRESENCE_FROM)).toBe(PRESENCE_INTERVAL_MS);
    expect(presenceInterval(1000)).toBeGreaterThan(15 * PRESENCE_INTERVAL_MS);
    size = 1000;
    pace.changed(size);
    size = 999;
    pace.changed(size);
    vi.advanceTimersByTime(presenceInterval(999) - 1);
    expect(sent).toEqual([1000]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([1000, 999]);
  });

  it('sends a change that comes after a quiet interval at once', () => {
    size = 500;
    pace.changed(size);
    vi.advanceTimersByTime(presenceInterval(500));
    size = 499;
    pace.changed(size);
    expect(sent).toEqual([500, 499]);
  });

  it('drops a list still due when stopped', () => {
    size = 500;
    pace.changed(size);
    pace.changed(++size);
    pace.stop();
    vi.advanceTimersByTime(10 * PRESENCE_INTERVAL_MS);
    expect(sent).toEqual([500]);
  });
});
