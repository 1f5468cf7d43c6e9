import { describe, expect, it } from 'vitest';
import { catalogOf, flattenCatalog, interpolate, t } from '../../shared/i18n';
import { shellEn, shellZh } from '../../shared/i18n/shell';
import { enUS, zhCN } from './index';

describe('i18n catalogs', () => {
  const zh = flattenCatalog(catalogOf('zh'));
  const en = flattenCatalog(catalogOf('en'));

  it('hold the shell texts and every feature section, none of them shadowing another', () => {
    for (const [shell, features, lang] of [[shellZh, zhCN, 'zh'], [shellEn, enUS, 'en']] as const) {
      expect(Object.keys(shell).filter((k) => k in features)).toEqual([]);
      expect(Object.keys(catalogOf(lang)).sort()).toEqual([...Object.keys(shell), ...Object.keys(features)].sort());
    }
  });

  it('have exactly the same keys', () => {
    const zhKeys = Object.keys(zh).sort();
    const enKeys = Object.keys(en).sort();
    expect(zhKeys.filter((k) => !(k in en))).toEqual([]);
    expect(enKeys.filter((k) => !(k in zh))).toEqual([]);
    expect(zhKeys.length).toBeGreaterThan(50);
  });

  it('have a non-empty string for every key in both languages', () => {
    for (const [name, flat] of [['zh-CN', zh], ['en-US', en]] as const) {
      const bad = Object.entries(flat).filter(([, v]) => typeof v !== 'string' || v.trim() === '');
      expect(bad.map(([k]) => `${name}:${k}`)).toEqual([]);
    }
  });

  it('use the same placeholders in both languages', () => {
    const vars = (s: unknown) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const diff = Object.keys(zh).filter((k) => vars(zh[k]).join() !== vars(en[k]).join());
    expect(diff).toEqual([]);
  });

  it('keys are feature.area(.item) paths', () => {
    for (const key of Object.keys(zh)) expect(key).toMatch(/^[a-z][A-Za-z]*(\.[a-z0-9][A-Za-z0-9]*)+$/);
  });

  it('translates with variables in either language', () => {
    expect(t('password.length', { min: 6, max: 32 }, 'en')).toBe('The password must be 6 to 32 characters');
    expect(t('password.length', { min: 6, max: 32 }, 'zh')).toBe('密码长度为 6 到 32 个字符');
    expect(t('app.pageTitle', { page: 'X' }, 'zh')).toBe('无人机管理平台 - X');
    expect(interpolate('{a}-{b}', { a: 1 })).toBe('1-{b}');
  });
});
