import { useCallback, useEffect, useRef, useState } from 'react';
import type { CallFields, CallName } from '@nest/contracts';
import { call } from '../request';
import type { Answer } from '../query';

export interface PolledCall<N extends CallName> {
  /** The last answer (kept when a later read fails). */
  data: Answer<N> | null;
  /** When the last answer arrived (ms). */
  at: number | null;
  /** Until the first read settles. */
  loading: boolean;
  /** The last read failed. */
  failed: boolean;
  /** Reads now (shown failures unless `quiet`); a read already under way is not doubled. */
  read: (quiet: boolean) => Promise<void>;
}

/**
 * A call read every `every` ms while the screen is open and `running` (a screen paused while its tab is hidden
 * reads at once when it shows again). Reads in the background are quiet; the first one is quiet when
 * `quietFirst`. Without `allowed` nothing is called. For screens whose figures move on their own (link
 * statistics, navigation fixes) and that do not rely on the push connection.
 */
export function usePolledCall<N extends CallName>(
  name: N,
  fields: CallFields<N>,
  { every, allowed, running = true, quietFirst = false }: { every: number; allowed: boolean; running?: boolean; quietFirst?: boolean },
): PolledCall<N> {
  const [data, setData] = useState<Answer<N> | null>(null);
  const [at, setAt] = useState<number | null>(null);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const busy = useRef(false);
  const key = JSON.stringify(fields);

  const read = useCallback(
    async (quiet: boolean) => {
      if (!allowed || busy.current) {
        setLoading(false);
        return;
      }
      busy.current = true;
      try {
        const answer = await call(name, JSON.parse(key) as CallFields<N>, { quiet });
        setData(answer);
        setAt(Date.now());
        setFailed(false);
      } catch {
        setFailed(true);
      } finally {
        busy.current = false;
        setLoading(false);
      }
    },
    [allowed, name, key],
  );

  useEffect(() => {
    if (!running) return;
    void read(quietFirst);
    const timer = setInterval(() => void read(true), every);
    return () => clearInterval(timer);
  }, [running, read, every, quietFirst]);

  return { data, at, loading, failed, read };
}
