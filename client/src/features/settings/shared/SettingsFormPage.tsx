import type { ReactNode } from 'react';
import { useGetSettingsQuery } from '../../../app/tenantApi';
import { LoadingOverlay } from '../../../components/LoadingOverlay';
import { PageHeader } from '../../../components/PageHeader';
import type { Settings } from '../../../lib/types';

export interface SettingsFormPageProps {
  title: string;
  subtitle: string;
  /** The form, once the company's settings have loaded. */
  form: (settings: Settings) => ReactNode;
  /** Shown after the form, loaded or not. */
  children?: ReactNode;
}

/** A settings screen whose form edits the company's settings. */
export function SettingsFormPage({ title, subtitle, form, children }: SettingsFormPageProps) {
  const { data: settings, isLoading } = useGetSettingsQuery();
  return (
    <section className="page">
      <PageHeader title={title} subtitle={subtitle} />
      {isLoading ? <LoadingOverlay /> : null}
      {settings ? form(settings) : null}
      {children}
    </section>
  );
}
