import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '@nest/contracts';
import { applyLang, getLang } from './i18n';
import { getUser, readSavedUser, restoreUser, setUser } from './session';

const user: User = {
  u_id: 'u1',
  nick: 'Operator',
  phone: '13800000001',
  email: '',
  company: 'wk',
  in_com: { id: 'wk', name: 'wk' },
  fun_list: ['menu_home'],
  state: 10,
  start_time: 0,
  end_time: 4_765_104_000,
  team: '',
  notes: '',
  password: '',
  token: 'secret-token-value',
};

describe('session', () => {
  afterEach(() => setUser(null));

  it('never keeps the token in the saved copy or in state', () => {
    setUser(user);
    expect(localStorage.getItem('userInfo')).not.toContain('secret-token-value');
    expect(readSavedUser()?.nick).toBe('Operator');
    expect(getUser()?.token).toBe('');
  });

  it('restores a demo nick in the page language (the copy was saved in the sign-in one) and a typed nick as typed', () => {
    const before = getLang();
    try {
      setUser({ ...user, nick: '管理员' });
      applyLang('en');
      expect(restoreUser()?.nick).toBe('Administrator');
      applyLang('zh');
      expect(restoreUser()?.nick).toBe('管理员');
      setUser(user);
      applyLang('en');
      expect(restoreUser()?.nick).toBe('Operator');
      expect(readSavedUser()?.nick).toBe('Operator');
    } finally {
      applyLang(before);
    }
  });

  it('removes the saved copy when the user is cleared', () => {
    setUser(user);
    setUser(null);
    expect(localStorage.getItem('userInfo')).toBeNull();
  });
});
