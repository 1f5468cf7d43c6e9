import { KEYS, storage } from '../shared/storage';

/** Whether the right-click / devtools-shortcut block is off (development, or `nest.devtools` = '1'). */
export const devtoolsAllowed = (): boolean => import.meta.env.DEV || storage.get(KEYS.devtools) === '1';

/** F12, Ctrl+Shift+I, Ctrl+Shift+J, Ctrl+U (and the macOS Cmd+Option twins). */
export function isBlockedShortcut(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): boolean {
  const key = e.key.toLowerCase();
  if (key === 'f12') return true;
  const mod = e.ctrlKey || e.metaKey;
  if (mod && (e.shiftKey || e.altKey) && (key === 'i' || key === 'j')) return true;
  return mod && !e.shiftKey && key === 'u';
}

/**
 * SPEC section 1: right-click and the developer-tool shortcuts are disabled. The header's own context
 * menu still opens: its React handler runs before this document listener and shows the console's menu.
 * Answers a function that removes the block.
 */
export function installDevtoolsGuard(target: Document = document): () => void {
  if (devtoolsAllowed()) return () => {};
  const onContextMenu = (e: MouseEvent) => e.preventDefault();
  const onKeyDown = (e: KeyboardEvent) => {
    if (isBlockedShortcut(e)) {
      e.preventDefault();
      e.stopPropagation();
    }
  };
  target.addEventListener('contextmenu', onContextMenu);
  target.addEventListener('keydown', onKeyDown, true);
  return () => {
    target.removeEventListener('contextmenu', onContextMenu);
    target.removeEventListener('keydown', onKeyDown, true);
  };
}
