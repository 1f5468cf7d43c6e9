import { useSyncExternalStore } from 'react';

/** The shell's dialogs; one is open at a time. */
export type DialogKind = 'account' | 'info' | 'password' | 'settings';

let open: DialogKind | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function openDialog(kind: DialogKind): void {
  open = kind;
  emit();
}

export function closeDialog(): void {
  open = null;
  emit();
}

export function useOpenDialog(): DialogKind | null {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => open,
    () => open,
  );
}
