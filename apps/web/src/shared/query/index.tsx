import type { ReactNode } from 'react';
import {
  QueryClient,
  QueryClientProvider,
  keepPreviousData,
  skipToken,
  useQuery,
  type QueryKey,
  type UseQueryResult,
} from '@tanstack/react-query';
import type { CallAnswer, CallFields, CallName } from '@nest/contracts';
import { call } from '../request';

/**
 * The console's one query cache. The request layer already shows a failure (and the login-expired box), so a
 * query never retries (a retry would show the same failure again) and never refetches on its own when the
 * window regains focus or the network returns: a screen reads its data when it opens, when its filters or
 * page change, and when a change of its own (or a poll) asks for it. An unused answer is dropped at once
 * (gcTime 0): a screen opened again reads fresh data, as before.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: false,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
      gcTime: 0,
    },
    mutations: { retry: false },
  },
});

/** Gives components the console's query cache (the hooks below use it even without the provider, in tests). */
export function QueryProvider({ children }: { children: ReactNode }): ReactNode {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

/** The cache key of a call's answer: the call's name, then its fields. */
export function callKey<N extends CallName>(name: N, fields?: CallFields<N>): QueryKey {
  return fields === undefined ? [name] : [name, fields];
}

/** What `call(name, ...)` answers (the call's answer schema in contracts). */
export type Answer<N extends CallName> = CallAnswer<N>;

export interface UseCallOptions {
  /** Show nothing on failure (the request layer's `quiet`). */
  quiet?: boolean;
  /**
   * Read again every so many ms while mounted. Such background refreshes are quiet once there is an answer:
   * a failing poll does not show its failure every period.
   */
  refetchInterval?: number;
  /** Keep showing the previous answer while the next one (another page, other filters) is read. */
  keepPrevious?: boolean;
}

/**
 * The answer of one call, read when the component mounts and again when `fields` change (compared by value);
 * `null` fields read nothing yet. Mutations refresh it with `invalidateCall(name)`.
 */
export function useCall<N extends CallName>(
  name: N,
  fields: CallFields<N> | null,
  opts: UseCallOptions = {},
): UseQueryResult<Answer<N>> {
  const { quiet = false, refetchInterval, keepPrevious = false } = opts;
  return useQuery<Answer<N>, Error, Answer<N>, QueryKey>(
    {
      queryKey: callKey(name, fields ?? undefined),
      queryFn:
        fields === null
          ? skipToken
          : ({ client, queryKey }) =>
              quiet || (refetchInterval !== undefined && client.getQueryData(queryKey) !== undefined)
                ? call(name, fields, { quiet: true })
                : call(name, fields),
      refetchInterval,
      placeholderData: keepPrevious ? keepPreviousData : undefined,
    },
    queryClient,
  );
}

/** Marks every cached answer of these calls stale and reads again the ones on screen (after a create, edit or delete). */
export function invalidateCall(...names: CallName[]): Promise<void> {
  return Promise.all(names.map((name) => queryClient.invalidateQueries({ queryKey: [name] }))).then(() => undefined);
}
