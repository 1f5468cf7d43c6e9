import { describe, expect, it } from 'vitest';
import { installDevtoolsGuard, isBlockedShortcut } from './devtools';

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('devtools block', () => {
  it('recognises F12, Ctrl+Shift+I, Ctrl+Shift+J and Ctrl+U only', () => {
    expect(isBlockedShortcut(key('F12'))).toBe(true);
    expect(isBlockedShortcut(key('I', { ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(isBlockedShortcut(key('J', { ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(isBlockedShortcut(key('u', { ctrlKey: true }))).toBe(true);
    expect(isBlockedShortcut(key('c', { ctrlKey: true }))).toBe(false);
    expect(isBlockedShortcut(key('i', { ctrlKey: true }))).toBe(false);
    expect(isBlockedShortcut(key('u', { ctrlKey: true, shiftKey: true }))).toBe(false);
  });

  it('is off in development (vitest runs with import.meta.env.DEV)', () => {
    const off = installDevtoolsGuard(document);
    const ev = new MouseEvent('contextmenu', { cancelable: true, bubbles: true });
    document.body.dispatchEvent(ev);
    expect(ev.defaultPrevented).toBe(import.meta.env.DEV ? false : true);
    off();
  });
});
