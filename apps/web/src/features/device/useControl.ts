import { useCallback, useEffect, useRef, useState } from 'react';
import { call } from '../../shared/request';

/** A held control connection is renewed this often (it lapses after DEVICE_HOLD_SECONDS without renewal). */
export const CONTROL_RENEW_MS = 30_000;

export interface Control {
  holding: boolean;
  busy: boolean;
  take: () => Promise<void>;
  release: () => Promise<void>;
}

/** Take / release the control connection of a device (/device/connect), renewed while held, released on leave. */
export function useControl(sn: string): Control {
  const [holding, setHolding] = useState(false);
  const [busy, setBusy] = useState(false);
  const holdingRef = useRef(false);

  const connect = useCallback(
    (action: 'connect' | 'release', quiet = false) => call('deviceConnect', { sn_id: sn, action, connect: action === 'connect' ? 1 : 0 }, { quiet }),
    [sn],
  );

  const take = useCallback(async () => {
    setBusy(true);
    try {
      await connect('connect');
      holdingRef.current = true;
      setHolding(true);
    } catch {
      /* the request layer showed why */
    } finally {
      setBusy(false);
    }
  }, [connect]);

  const release = useCallback(async () => {
    setBusy(true);
    try {
      await connect('release');
    } catch {
      /* shown; the hold lapses by itself anyway */
    } finally {
      holdingRef.current = false;
      setHolding(false);
      setBusy(false);
    }
  }, [connect]);

  useEffect(() => {
    if (!holding) return;
    const timer = setInterval(() => {
      connect('connect', true).catch(() => {
        holdingRef.current = false;
        setHolding(false);
      });
    }, CONTROL_RENEW_MS);
    return () => clearInterval(timer);
  }, [holding, connect]);

  // Leaving the device (another one chosen, panel closed) gives control back.
  useEffect(
    () => () => {
      if (holdingRef.current) {
        holdingRef.current = false;
        void connect('release', true).catch(() => undefined);
      }
    },
    [connect],
  );

  return { holding, busy, take, release };
}
