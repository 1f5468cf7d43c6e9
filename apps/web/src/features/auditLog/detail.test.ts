import { describe, expect, it } from 'vitest';
import { PERMANENT_END_TIME } from '@nest/contracts';
import { t as translate, type MessageKey, type Vars } from '../../shared/i18n';
import { describeDetail } from './detail';

const en = (key: MessageKey, vars?: Vars) => translate(key, vars, 'en');
const zh = (key: MessageKey, vars?: Vars) => translate(key, vars, 'zh');

describe('audit detail in words', () => {
  it('names sign-in refusals and locks in the reader’s language', () => {
    expect(describeDetail({ reason: 'wrong_password' }, en)).toBe('Wrong password');
    expect(describeDetail({ reason: 'wrong_password' }, zh)).toBe('密码错误');
    expect(describeDetail({ reason: 'limit_reached', locked: ['account', 'address'] }, en)).toBe('Too many failures: locked; Locked: account / client address');
  });

  it('shows what a user’s functions gained and lost, and validity changes as dates', () => {
    const d = { account: 'a@b.c', fun_list: { before: ['x', 'y'], after: ['y', 'z'] }, end_time: { before: 1_700_000_000, after: PERMANENT_END_TIME }, reset: 'password' };
    expect(describeDetail(d, en)).toMatch(/^Account: a@b\.c; Functions: \+z −x; End: 2023-11-1\d \d\d:\d\d:\d\d → Permanent; Password reset$/);
  });

  it('shows group membership as added and removed devices and users', () => {
    const d = { name: 'North', action: 'edit', before: { device_ids: ['D1'], user_ids: ['u1'] }, after: { device_ids: ['D1', 'D2'], user_ids: [] } };
    expect(describeDetail(d, en)).toBe('Name: North; Changed; Devices: +D2; Users: −u1');
    expect(describeDetail({ name: 'North', action: 'delete', before: { device_ids: ['D1'], user_ids: [] } }, zh)).toBe('名称: North; 删除; 设备: −D1; 用户: =');
  });

  it('keeps what it does not know visible, as it is', () => {
    expect(describeDetail({}, en)).toBe('--');
    expect(describeDetail({ cmd_id: 'c-1', source: 'user', extra: { n: 1 } }, en)).toBe('Command id: c-1; Source: user; extra: {"n":1}');
    expect(describeDetail({ reason: 'something_new' }, en)).toBe('something_new');
  });
});
