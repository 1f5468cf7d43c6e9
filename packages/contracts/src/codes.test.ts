import { describe, expect, it } from 'vitest';
import { CODE_TEXT, HTTP_TEXT, ResultCode, SUCCESS_CODES, codeText, isSuccess } from './codes.js';

describe('result codes', () => {
  it('gives every code a text in both languages', () => {
    for (const code of Object.values(ResultCode)) {
      const t = CODE_TEXT[code];
      expect(t, `code ${code}`).toBeDefined();
      expect(t.zh.trim(), `zh of ${code}`).not.toBe('');
      expect(t.en.trim(), `en of ${code}`).not.toBe('');
      expect(t.zh).not.toBe(t.en);
    }
  });

  it('has distinct code numbers', () => {
    const values = Object.values(ResultCode);
    expect(new Set(values).size).toBe(values.length);
  });

  it('treats exactly 2000, 2201 and 44020 as success', () => {
    expect([...SUCCESS_CODES].sort()).toEqual([2000, 2201, 44020]);
    expect(isSuccess(2000)).toBe(true);
    expect(isSuccess(2201)).toBe(true);
    expect(isSuccess(44020)).toBe(true);
    expect(isSuccess(40263)).toBe(false);
    expect(isSuccess(2002)).toBe(false);
    expect(isSuccess(0)).toBe(false);
  });

  it('uses the SPEC wording for login expiry and HTTP failures', () => {
    expect(ResultCode.LOGIN_EXPIRED).toBe(40263);
    expect(codeText(40263, 'en')).toBe('Login has expired, please log in again');
    expect(HTTP_TEXT[404].en).toBe('Interface does not exist');
    expect(HTTP_TEXT[401].en).toBe('No permission to access');
    expect(HTTP_TEXT[500].en).toBe('Server error, please contact the administrator');
  });

  it('falls back to the server-error text for unknown codes', () => {
    expect(codeText(123456, 'zh')).toBe(CODE_TEXT[ResultCode.SERVER_ERROR].zh);
  });
});
