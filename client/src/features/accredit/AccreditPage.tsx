import { PlaceholderPage } from '../../components/PlaceholderPage';

/** /accreditar. */
export function AccreditPage() {
  return <PlaceholderPage titleKey="accredit.title" />;
}
