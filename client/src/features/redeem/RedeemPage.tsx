import { PlaceholderPage } from '../../components/PlaceholderPage';

/** /redimir. */
export function RedeemPage() {
  return <PlaceholderPage titleKey="redeem.title" />;
}
