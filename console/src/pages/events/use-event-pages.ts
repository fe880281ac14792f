import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import type { ListQuery } from '../../api/types';
import { useAsync } from '../../components/use-async';

/**
 * GET /messages one page at a time with the API's cursors: next follows nextCursor, previous
 * goes back through the cursors already followed. New filters start again at the first page.
 */
export function useEventPages(query: Omit<ListQuery, 'cursor'>, refreshMs?: number) {
  const key = JSON.stringify(query);
  const [pages, setPages] = useState<{ key: string; cursors: string[] }>({ key, cursors: [] });
  const cursors = pages.key === key ? pages.cursors : [];
  const cursor = cursors[cursors.length - 1];
  const state = useAsync(
    (signal) => unwrap(api.GET('/messages', { params: { query: { ...query, cursor } }, signal })),
    [key, cursor],
    refreshMs,
  );
  const nextCursor = state.loading ? null : (state.data?.nextCursor ?? null);
  return {
    state,
    pageNumber: cursors.length + 1,
    next: nextCursor === null ? undefined : () => setPages({ key, cursors: [...cursors, nextCursor] }),
    previous: cursors.length === 0 || state.loading ? undefined : () => setPages({ key, cursors: cursors.slice(0, -1) }),
  };
}
