import { showText } from '@nest/contracts';
import { describe, expect, it } from 'vitest';
import { RawJson, oneByte } from './raw-json.js';

describe('oneByte', () => {
  it('keeps every text as it is, Latin-1 or not', () => {
    for (const text of ['', 'Nest A01', 'Café ü ÿ', '机场 A01', 'a😀b', '\u0100', showText('机场 A01', 'en')]) expect(oneByte(text)).toBe(text);
  });
});

describe('RawJson', () => {
  it('answers the envelope text with its data in place, as bytes, encoded again only for another head', () => {
    const raw = new RawJson('{"list":["机场"],"total":1}');
    const head = '{"code":2000,"msg":"ok","data":';
    const body = raw.body(head);
    expect(JSON.parse(body.toString('utf8'))).toEqual({ code: 2000, msg: 'ok', data: { list: ['机场'], total: 1 } });
    expect(raw.body(head)).toBe(body);
    const other = raw.body('{"code":2000,"msg":"成功","data":');
    expect(other).not.toBe(body);
    expect(JSON.parse(other.toString('utf8'))).toMatchObject({ msg: '成功', data: { total: 1 } });
  });
});
