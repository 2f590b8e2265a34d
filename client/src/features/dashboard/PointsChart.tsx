// Loaded on its own (React.lazy) so recharts stays out of every other bundle.

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useFormat } from '../../app/useFormat';
import { intlLocale } from '../../lib/format';
import { CHART_Y_TICKS, yAxis } from './chartData';
import type { DailyPoints } from './dashboardApi';

const ACCREDITED_COLOR = '#16a34a';
const REDEEMED_COLOR = '#dc2626';
const RETURNED_COLOR = '#d97706';

/** Accredited (green), redeemed (red) and returned (amber) points per day over the 30-day window. */
export default function PointsChart({ buckets }: { buckets: DailyPoints[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  const axis = useMemo(() => yAxis(buckets), [buckets]);
  const dayFormat = useMemo(
    () => new Intl.DateTimeFormat(intlLocale(format.locale), { day: '2-digit', month: 'short', timeZone: 'UTC' }),
    [format.locale],
  );
  const day = (date: string) => dayFormat.format(new Date(`${date}T00:00:00Z`));
  const accredited = t('dashboard.chart.accredited');
  const redeemed = t('dashboard.chart.redeemed');
  const returned = t('dashboard.chart.returned');

  return (
    <div className="points-chart" role="img" aria-label={t('dashboard.chart.description')}>
      <ResponsiveContainer width="100%" height={300} initialDimension={{ width: 600, height: 300 }}>
        <LineChart data={buckets} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.12} />
          <XAxis dataKey="date" tickFormatter={day} minTickGap={16} tick={{ fontSize: 12, fill: 'currentColor' }} />
          <YAxis
            domain={[0, axis.max]}
            ticks={axis.ticks}
            tickCount={CHART_Y_TICKS}
            allowDecimals={false}
            tickFormatter={(value: number) => format.number(value)}
            tick={{ fontSize: 12, fill: 'currentColor' }}
            width={72}
          />
          <Tooltip
            labelFormatter={(label) => day(String(label))}
            formatter={(value) => format.number(Number(value))}
            contentStyle={{ background: 'var(--color-surface)', border: '1px solid var(--color-border)', borderRadius: 8 }}
          />
          <Legend />
          <Line type="monotone" dataKey="accredited" name={accredited} stroke={ACCREDITED_COLOR} strokeWidth={2} dot={false} />
          <Line type="monotone" dataKey="redeemed" name={redeemed} stroke={REDEEMED_COLOR} strokeWidth={2} dot={false} />
          <Line type="monotone" dataKey="returned" name={returned} stroke={RETURNED_COLOR} strokeWidth={2} dot={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
