import { CheckCircleIcon, XCircleIcon } from '@heroicons/react/24/outline';
import { useEffect } from 'react';

/** How long the void result stays (docs/screens.md, "Messages"). */
export const VOID_BANNER_MS = 4000;

export interface VoidResult {
  kind: 'success' | 'error';
  message: string;
  /** Distinguishes two equal results in a row, so each gets its full 4 s. */
  id: number;
}

/**
 * The void's result: green on success, red otherwise; it goes away after 4 s. It floats below
 * the header, so it is in view wherever the list was scrolled to.
 */
export function VoidBanner({ result, onDone }: { result: VoidResult | null; onDone: () => void }) {
  useEffect(() => {
    if (!result) return undefined;
    const timer = window.setTimeout(onDone, VOID_BANNER_MS);
    return () => window.clearTimeout(timer);
  }, [result, onDone]);

  if (!result) return null;
  const Icon = result.kind === 'success' ? CheckCircleIcon : XCircleIcon;
  return (
    <div className={`void-banner ${result.kind === 'success' ? 'tone-success' : 'tone-danger'}`} role={result.kind === 'success' ? 'status' : 'alert'}>
      <Icon aria-hidden="true" />
      <span>{result.message}</span>
    </div>
  );
}
