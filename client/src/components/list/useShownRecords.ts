import { useMemo } from 'react';
import { byName } from '../../lib/paging';

/** The part of an RTK Query list result a list screen reads. */
export interface RecordsResult<T> {
  data?: readonly T[];
  isLoading: boolean;
  isError: boolean;
}

/**
 * The records a client-side list shows, sorted by name: the active ones, or while 'show inactive'
 * is on the inactive ones (asked for only then). `nameOf` keeps its identity across renders.
 */
export function useShownRecords<T>(
  showInactive: boolean,
  active: RecordsResult<T>,
  inactive: RecordsResult<T>,
  nameOf: (record: T) => string,
) {
  const { data, isLoading, isError } = showInactive ? inactive : active;
  const items = useMemo(() => [...(data ?? [])].sort(byName(nameOf)), [data, nameOf]);
  return { items, isLoading, isError };
}
