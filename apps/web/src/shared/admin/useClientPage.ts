import { useCallback, useState } from 'react';

/**
 * The current page (1-based) of a table paged on the client, for AdminTable's `page`: it belongs to the
 * filters it was chosen under (`key`, any value compared as JSON), so new filters start at page 1.
 */
export function useClientPage(key: unknown): { current: number; onChange: (page: number) => void } {
  const k = JSON.stringify(key);
  const [chosen, setChosen] = useState({ k, page: 1 });
  const onChange = useCallback((page: number) => setChosen({ k, page }), [k]);
  return { current: chosen.k === k ? chosen.page : 1, onChange };
}
