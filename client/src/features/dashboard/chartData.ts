// The 30-day chart's data and axis (docs/screens.md, "Printouts and exports"): 30 daily buckets, 5 y ticks, the top of
// the axis at 1.1 times the largest value.

import type { DailyPoints } from './dashboardApi';

export const DASHBOARD_WINDOW_DAYS = 30;
export const CHART_Y_TICKS = 5;
export const CHART_Y_HEADROOM = 1.1;

function isoDay(date: Date): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/**
 * Exactly 30 buckets, oldest first, ending today (or on the last day the server reported, when
 * the company's time zone is already a day ahead); days the server left out are zero.
 */
export function dailyBuckets(days: readonly DailyPoints[], today: Date = new Date()): DailyPoints[] {
  const byDate = new Map(days.map((day) => [day.date.slice(0, 10), day]));
  const last = [isoDay(today), ...byDate.keys()].sort().at(-1)!;
  const [y, m, d] = last.split('-').map(Number) as [number, number, number];
  return Array.from({ length: DASHBOARD_WINDOW_DAYS }, (_, index) => {
    const date = isoDay(new Date(y, m - 1, d - (DASHBOARD_WINDOW_DAYS - 1 - index)));
    const found = byDate.get(date);
    return {
      date,
      accredited: Number(found?.accredited ?? 0),
      redeemed: Number(found?.redeemed ?? 0),
      returned: Number(found?.returned ?? 0),
    };
  });
}

/** The y axis: from 0 to 1.1 times the largest value (at least 1), in 5 ticks of whole points. */
export function yAxis(buckets: readonly DailyPoints[]): { max: number; ticks: number[] } {
  const peak = Math.max(0, ...buckets.flatMap((bucket) => [bucket.accredited, bucket.redeemed, bucket.returned]));
  const top = Math.max(CHART_Y_TICKS - 1, Math.ceil(peak * CHART_Y_HEADROOM));
  const step = top / (CHART_Y_TICKS - 1);
  return { max: top, ticks: Array.from({ length: CHART_Y_TICKS }, (_, index) => Math.round(step * index)) };
}
