import { useCallback, useState, type ReactNode } from 'react';

/** What a Form.Item shows for one field: its error once the user tried to save, else its hint (if any). */
export interface FieldStatus {
  validateStatus?: 'error';
  help?: ReactNode;
  extra?: ReactNode;
}

/**
 * The field errors of a dialog whose form is held in state (checked by the feature's own rules): none show
 * until the user first tries to save, so a fresh form is not all red. `attempt()` marks that try, `reset()`
 * forgets it when the dialog opens again, `shown(error, hint)` spreads into a Form.Item.
 */
export function useFieldErrors(): { attempt: () => void; reset: () => void; shown: (error: ReactNode, hint?: ReactNode) => FieldStatus } {
  const [tried, setTried] = useState(false);
  const attempt = useCallback(() => setTried(true), []);
  const reset = useCallback(() => setTried(false), []);
  const shown = useCallback(
    (error: ReactNode, hint?: ReactNode): FieldStatus => (tried && error ? { validateStatus: 'error', help: error } : hint ? { extra: hint } : {}),
    [tried],
  );
  return { attempt, reset, shown };
}
