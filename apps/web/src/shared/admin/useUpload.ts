import { useCallback, useRef, useState } from 'react';

/** What an upload dialog passes on to `call` (request layer CallOptions). */
export interface UploadCallOptions {
  onUploadProgress: (fraction: number) => void;
  signal: AbortSignal;
}

export interface Upload {
  /** 0..1 while sending, null when idle. */
  progress: number | null;
  percent: number;
  sending: boolean;
  /** Sends with progress and a cancel signal; true when the call succeeded (its failure was already shown). */
  run: (send: (opts: UploadCallOptions) => Promise<unknown>) => Promise<boolean>;
  /** Aborts the upload in flight, if any. */
  cancel: () => void;
}

/** The progress and cancel state of one file upload in a dialog (firmware, teaching videos). */
export function useUpload(): Upload {
  const [progress, setProgress] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);

  const run = useCallback(async (send: (opts: UploadCallOptions) => Promise<unknown>) => {
    const controller = new AbortController();
    abort.current = controller;
    setProgress(0);
    try {
      await send({ onUploadProgress: setProgress, signal: controller.signal });
      return true;
    } catch {
      // Shown by the request layer (or cancelled by the user).
      setProgress(null);
      return false;
    } finally {
      abort.current = null;
    }
  }, []);
  const cancel = useCallback(() => abort.current?.abort(), []);

  return { progress, percent: Math.round((progress ?? 0) * 100), sending: progress !== null, run, cancel };
}
