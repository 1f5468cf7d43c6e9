import { beforeEach, describe, expect, it } from 'vitest';
import { TOKEN_COOKIE } from '@nest/contracts';
import { CookieKeyError, clearToken, getCookie, getToken, loadToken, saveToken, setCookie } from './cookie';
import { KEYS } from './storage';

const wipeCookies = () => {
  for (const part of document.cookie.split('; ').filter(Boolean)) {
    document.cookie = `${part.split('=')[0]}=; Max-Age=0; Path=/nest`;
    document.cookie = `${part.split('=')[0]}=; Max-Age=0; Path=/`;
  }
};

describe('cookie', () => {
  beforeEach(() => {
    // The test DOM only sends cookies whose Path matches the document URL.
    window.history.replaceState(null, '', '/nest/home');
    wipeCookies();
    localStorage.clear();
    clearToken();
  });

  it('rejects an empty key with "key cannot be empty"', () => {
    expect(() => setCookie('', 'v', 1)).toThrow(CookieKeyError);
    expect(() => setCookie('', 'v', 1)).toThrow('key cannot be empty');
  });

  it('sets and reads a plain cookie', () => {
    setCookie('a key', 'va=lue;x', 1);
    expect(getCookie('a key')).toBe('va=lue;x');
    expect(getCookie('missing')).toBeNull();
  });

  it('stores the token encrypted and reads it back', async () => {
    const token = 'tok_0123456789abcdef';
    await saveToken(token);
    expect(getToken()).toBe(token);
    const stored = getCookie(TOKEN_COOKIE);
    expect(stored).toBeTruthy();
    expect(stored).not.toContain(token);
    expect(document.cookie).not.toContain(token);
    expect(document.cookie).toContain(TOKEN_COOKIE);

    // A fresh page load: memory empty, cookie decrypted again.
    clearTokenMemoryOnly();
    expect(await loadToken()).toBe(token);
    expect(getToken()).toBe(token);
  });

  it('encrypts with a fresh iv each time', async () => {
    await saveToken('same');
    const a = getCookie(TOKEN_COOKIE);
    await saveToken('same');
    expect(getCookie(TOKEN_COOKIE)).not.toBe(a);
  });

  it('treats an unreadable cookie as no token and removes it', async () => {
    await saveToken('secret-token');
    localStorage.setItem(KEYS.tokenSecret, 'A'.repeat(43)); // another browser secret: cannot decrypt
    expect(await loadToken()).toBe('');
    expect(getCookie(TOKEN_COOKIE)).toBeNull();
    setCookie(TOKEN_COOKIE, 'garbage', 1);
    expect(await loadToken()).toBe('');
  });

  it('clearToken removes cookie and memory', async () => {
    await saveToken('t1');
    clearToken();
    expect(getToken()).toBe('');
    expect(getCookie(TOKEN_COOKIE)).toBeNull();
  });
});

/** Simulates a reload: the in-memory copy is gone but the cookie stays. */
function clearTokenMemoryOnly() {
  const cookie = getCookie(TOKEN_COOKIE);
  clearToken();
  if (cookie) document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(cookie)}; Path=/nest`;
}
