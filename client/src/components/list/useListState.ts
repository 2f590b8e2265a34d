import { useCallback, useMemo, useState } from 'react';
import { LIST_DEFAULT_PAGE_SIZE } from '../../lib/constants';

/** Search text, page and page size of a list. Pass it to PagedList; in server mode read it for the query. */
export interface ListState {
  search: string;
  page: number;
  pageSize: number;
  setSearch: (search: string) => void;
  /** Sets the page as is; PagedList applies the paging rules before calling it. */
  setPage: (page: number) => void;
  /** Changing the page size goes back to page 1. */
  setPageSize: (pageSize: number) => void;
}

export function useListState(defaultPageSize: number = LIST_DEFAULT_PAGE_SIZE): ListState {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeState] = useState(defaultPageSize);

  const setPageSize = useCallback((size: number) => {
    setPageSizeState(size);
    setPage(1);
  }, []);

  return useMemo(
    () => ({ search, page, pageSize, setSearch, setPage, setPageSize }),
    [search, page, pageSize, setPageSize],
  );
}
