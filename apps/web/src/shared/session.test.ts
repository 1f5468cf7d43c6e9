import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '@nest/contracts';
import { getUser, readSavedUser, setUser } from './session';

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

  it('removes the saved copy when the user is cleared', () => {
    setUser(user);
    setUser(null);
    expect(localStorage.getItem('userInfo')).toBeNull();
  });
});
