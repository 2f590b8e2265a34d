import { PlaceholderPage } from '../../components/PlaceholderPage';

/** /reportes. */
export function ReportsPage() {
  return <PlaceholderPage titleKey="reports.title" />;
}
