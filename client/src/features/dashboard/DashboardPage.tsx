import { PlaceholderPage } from '../../components/PlaceholderPage';

/** /main. KPI cards, the 30-day chart and the quick panels come with the dashboard issue. */
export function DashboardPage() {
  return <PlaceholderPage titleKey="dashboard.title" />;
}
