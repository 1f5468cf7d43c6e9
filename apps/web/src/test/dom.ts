import { MENU, SUPER_ADMINISTRATOR, menuFunId, type User } from '@nest/contracts';

/** The test DOM may lack matchMedia, which antd's responsive helpers call. */
export function installMatchMedia(): void {
  if (typeof window.matchMedia === 'function') return;
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

/** The test DOM has no layout, and may have no ResizeObserver; antd and chart panels only need it to exist. */
export function installResizeObserver(): void {
  if (typeof globalThis.ResizeObserver === 'function') return;
  globalThis.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  } as unknown as typeof ResizeObserver;
}

export function makeUser(funList: string[], extra: Partial<User> = {}): User {
  return {
    u_id: 'u1',
    nick: 'Operator',
    phone: '13800000000',
    email: '',
    company: 'wk',
    in_com: { id: 'c1', name: 'WK' },
    fun_list: funList,
    state: 10,
    start_time: 1_700_000_000,
    end_time: 4_765_104_000,
    team: '',
    notes: '',
    password: '',
    token: 'tok',
    ...extra,
  };
}

export const ADMIN = makeUser([SUPER_ADMINISTRATOR], { nick: 'Admin' });
export const LIMITED = makeUser([menuFunId('home'), menuFunId('equipment')], { nick: 'Limited' });
export { MENU };
