// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { dailyBuckets, yAxis } from './chartData';

describe('dashboard chart data', () => {
  const today = new Date(2026, 2, 9);

  it('has exactly 30 daily buckets ending today, gaps as zero', () => {
    const buckets = dailyBuckets([{ date: '2026-03-08', accredited: 120, redeemed: 30, returned: 12 }], today);
    expect(buckets).toHaveLength(30);
    expect(buckets[0]?.date).toBe('2026-02-08');
    expect(buckets[29]).toEqual({ date: '2026-03-09', accredited: 0, redeemed: 0, returned: 0 });
    expect(buckets[28]).toEqual({ date: '2026-03-08', accredited: 120, redeemed: 30, returned: 12 });
  });

  it('keeps the server’s window when its time zone is a day ahead', () => {
    const buckets = dailyBuckets([{ date: '2026-03-10', accredited: 5, redeemed: 0, returned: 0 }], today);
    expect(buckets[29]?.date).toBe('2026-03-10');
    expect(buckets[0]?.date).toBe('2026-02-09');
  });

  it('puts the top of the y axis at 1.1 times the largest value, with 5 ticks', () => {
    const axis = yAxis([
      { date: '2026-03-01', accredited: 1000, redeemed: 200, returned: 0 },
      { date: '2026-03-02', accredited: 300, redeemed: 1200, returned: 0 },
    ]);
    expect(axis.max).toBe(1320);
    expect(yAxis([{ date: '2026-03-01', accredited: 10, redeemed: 0, returned: 2000 }]).max).toBe(2200);
    expect(axis.ticks).toEqual([0, 330, 660, 990, 1320]);
  });

  it('still draws 5 ticks without any points', () => {
    const axis = yAxis([{ date: '2026-03-01', accredited: 0, redeemed: 0, returned: 0 }]);
    expect(axis.ticks).toHaveLength(5);
    expect(axis.ticks[0]).toBe(0);
    expect(axis.max).toBeGreaterThan(0);
  });
});
