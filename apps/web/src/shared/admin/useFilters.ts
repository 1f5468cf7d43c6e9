import { useCallback, useState } from 'react';

/**
 * A screen's filters as one value (the search text, a kind, a state...), often the list call's own fields;
 * `change` sets some of them and keeps the others.
 */
export function useFilters<F extends object>(initial: F): [F, (change: Partial<F>) => void] {
  const [filters, setFilters] = useState(initial);
  const change = useCallback((next: Partial<F>) => setFilters((f) => ({ ...f, ...next })), []);
  return [filters, change];
}
