/// <reference types="node" />
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { APP_CODE, APP_FLAVOR, APP_IDS, APP_TYPE } from './constants.js';
import { md5Hex, pmdValueOf, sameHex, signPmd, signedCallBody } from './signature.js';

const md5 = (s: string): string => createHash('md5').update(s, 'utf8').digest('hex');

describe('signPmd', () => {
  it('signs token + pmd value without the timestamp flag', () => {
    expect(signPmd({ token: 'tok123', pmdValue: '010' })).toBe(md5('tok123010'));
  });

  it('prefixes the timestamp when the flag is set', () => {
    const ts = 1_700_000_000_123;
    expect(signPmd({ token: 'tok123', pmdValue: 'abc', timestamp: ts })).toBe(md5(`${ts}tok123abc`));
    expect(signPmd({ token: 'tok123', pmdValue: 'abc', timestamp: String(ts) })).toBe(md5(`${ts}tok123abc`));
    expect(signPmd({ token: 'tok123', pmdValue: 'abc', timestamp: ts })).not.toBe(
      signPmd({ token: 'tok123', pmdValue: 'abc' }),
    );
  });

  it('signs empty token and pmd as /user/info does', () => {
    expect(signPmd({ token: '', pmdValue: '' })).toBe(md5(''));
    expect(signPmd({ token: '', pmdValue: '' })).toBe('d41d8cd98f00b204e9800998ecf8427e');
  });

  it('hashes unicode values as UTF-8', () => {
    const value = pmdValueOf({ nick: '张三', phone: 'ü@例子.cn', emoji: '🚁' }, ['nick', 'phone', 'emoji']);
    expect(value).toBe('张三ü@例子.cn🚁');
    expect(signPmd({ token: 'tök', pmdValue: value, timestamp: 42 })).toBe(md5('42tök张三ü@例子.cn🚁'));
    expect(md5Hex('无人机')).toBe(md5('无人机'));
  });
});

describe('pmdValueOf (joint concatenation)', () => {
  it('concatenates in the named order, not the object order', () => {
    expect(pmdValueOf({ b: 'B', a: 'A', c: 'C' }, ['c', 'a', 'b'])).toBe('CAB');
  });

  it('counts missing, undefined and null fields as empty strings', () => {
    expect(pmdValueOf({ a: '1', b: undefined, c: null, d: 4 }, ['a', 'b', 'x', 'c', 'd'])).toBe('14');
  });

  it('stringifies numbers and booleans and keeps zeros', () => {
    expect(pmdValueOf({ page: 0, type: 10, flag: false }, ['page', 'type', 'flag'])).toBe('010false');
  });

  it('is empty when no field is named', () => {
    expect(pmdValueOf({ a: '1' }, [])).toBe('');
  });

  it('signs a joint value like the password change call does', () => {
    const fields = { account: '13800138000', password: 'ZW5jMQ==', new_psw: 'ZW5jMg==' };
    const value = pmdValueOf(fields, ['account', 'password', 'new_psw']);
    expect(signPmd({ token: 't', pmdValue: value })).toBe(md5('t13800138000ZW5jMQ==ZW5jMg=='));
  });
});

describe('sameHex', () => {
  it('accepts equal strings and refuses any difference', () => {
    const h = md5('x');
    expect(sameHex(h, h)).toBe(true);
    expect(sameHex(h, `${h.slice(0, -1)}${h.endsWith('0') ? '1' : '0'}`)).toBe(false);
    expect(sameHex(h, h.slice(1))).toBe(false);
    expect(h).toMatch(/[a-f]/);
    expect(sameHex(h, h.toUpperCase())).toBe(false);
    expect(sameHex('', '')).toBe(true);
  });
});

describe('signedCallBody', () => {
  const ts = 1_700_000_000_123;

  it('carries the common fields, the token and the call fields', () => {
    const body = signedCallBody({ pmd: ['page', 'type'], timestamp: false }, { type: '0', page: '2', size: '200' }, 'tok', ts, 'zh');
    expect(body).toEqual({
      app_type: String(APP_TYPE),
      app_ids: APP_IDS,
      app_code: APP_CODE,
      app_flavor: APP_FLAVOR,
      os_timestamp: String(ts),
      os_language: 'zh',
      token: 'tok',
      pmd: md5('tok20'),
      type: '0',
      page: '2',
      size: '200',
    });
  });

  it('signs the timestamp only for a call with the timestamp flag', () => {
    expect(signedCallBody({ pmd: ['u_id'], timestamp: true }, { u_id: 'u1' }, 'tok', ts).pmd).toBe(md5(`${ts}toku1`));
    expect(signedCallBody({ pmd: [], timestamp: false }, {}, '', ts).pmd).toBe(md5(''));
  });

  it('defaults to English and the current time', () => {
    const before = Date.now();
    const body = signedCallBody({ pmd: [], timestamp: true }, {}, 'tok');
    const stamp = Number(body.os_timestamp);
    expect(body.os_language).toBe('en');
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(stamp).toBeLessThanOrEqual(Date.now());
    expect(body.pmd).toBe(md5(`${stamp}tok`));
  });
});
