import { useCallback, useMemo, useState } from 'react';

export interface EditDialog<T> {
  /** The open dialog's subject (`{ of: null }` when it adds), or null when closed. */
  open: { of: T } | null;
  show: (of: T) => void;
  /** The dialog's onClose and onSaved: saving closes it and reads the table again. */
  dialog: { onClose: () => void; onSaved: () => void };
}

/**
 * The add / edit dialog of an administration screen: which row it shows (or that it adds), and what happens
 * when it closes or saves (closed, then `reload`).
 */
export function useEditDialog<T>(reload: () => unknown): EditDialog<T> {
  const [open, setOpen] = useState<{ of: T } | null>(null);
  const show = useCallback((of: T) => setOpen({ of }), []);
  const dialog = useMemo(
    () => ({
      onClose: () => setOpen(null),
      onSaved: () => {
        setOpen(null);
        void reload();
      },
    }),
    [reload],
  );
  return { open, show, dialog };
}
