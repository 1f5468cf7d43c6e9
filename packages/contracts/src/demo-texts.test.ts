import { describe, expect, it } from 'vitest';
import { DEMO_TEXTS, demoSearchTerms, demoText, demoTextOf, showText, showTexts, textsOf, type DemoText, type DemoTextKey } from './demo-texts.js';

const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
const entries = Object.entries(DEMO_TEXTS) as [DemoTextKey, DemoText][];
const paramsOf = (form: string): string[] => [...form.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
const SAMPLE: Record<string, string> = { label: 'A01', lat: '22.5431', lng: '114.0579' };
const sample = (form: string): Record<string, string> => Object.fromEntries(paramsOf(form).map((p) => [p, SAMPLE[p]!]));

describe('demo texts catalogue', () => {
  it('has both forms of every entry: no Chinese in the English form, Chinese in the Chinese form, the same parameters', () => {
    for (const [key, t] of entries) {
      expect(t.zh.trim(), key).not.toBe('');
      expect(t.en.trim(), key).not.toBe('');
      expect(t.en, key).not.toMatch(CJK);
      expect(t.zh, key).toMatch(CJK);
      expect(paramsOf(t.en), key).toEqual(paramsOf(t.zh));
      for (const legacy of t.legacy ?? []) expect([...new Set(paramsOf(legacy))], key).toEqual(paramsOf(t.zh));
    }
  });

  it('recognises every form (Chinese, English, older stored ones) as its entry and shows it in either language', () => {
    for (const [key, t] of entries) {
      const params = sample(t.zh);
      for (const form of [t.zh, t.en, ...(t.legacy ?? [])]) {
        const stored = form.replace(/\{(\w+)\}/g, (_m, p: string) => params[p]!);
        expect(demoTextOf(stored)?.key, stored).toBe(key);
        expect(showText(stored, 'zh')).toBe(demoText(key, params, 'zh'));
        expect(showText(stored, 'en')).toBe(demoText(key, params, 'en'));
      }
    }
    // No two entries share a form: a stored value means one thing.
    const forms = entries.flatMap(([, t]) => [t.zh, t.en, ...(t.legacy ?? [])]);
    expect(new Set(forms).size).toBe(forms.length);
  });

  it('stores the Chinese form and reads the examples of the console as expected', () => {
    expect(demoText('device.soldier', { label: 'D01' })).toBe('单兵 D01');
    expect(showText('单兵 D01', 'en')).toBe('Soldier D01');
    expect(showText('巡检 A01 · Patrol A01', 'en')).toBe('Patrol A01');
    expect(showText('巡检 A01 · Patrol A01', 'zh')).toBe('巡检 A01');
    expect(showText('机场 A01 UAV', 'zh')).toBe('机场 A01 无人机');
    expect(showText('Simulated (22.5742, 114.0978)', 'zh')).toBe('模拟位置（22.5742, 114.0978）');
    expect(showText('演示 Demo', 'en')).toBe('Demo');
    expect(showText('Fixed nest', 'zh')).toBe('固定机场');
    expect(textsOf('机场 B01')).toEqual({ zh: '机场 B01', en: 'Nest B01' });
  });

  it('never translates what a user typed, even close to a demo name', () => {
    for (const typed of ['东门机场 7号', 'North gate', '巡检 A01 东侧', '机场A01', 'Patrol a01', ' 机场 A01', 'Nest A01 ', 'Simulated (here)', 'demo', '', 'wk', 'SIM-STABLE-01']) {
      expect(demoTextOf(typed), typed).toBeNull();
      expect(showText(typed, 'en')).toBe(typed);
      expect(showText(typed, 'zh')).toBe(typed);
      expect(textsOf(typed)).toEqual({ zh: typed, en: typed });
    }
  });

  it('shows the texts of an answer at any depth, leaves {zh, en} pairs and other values alone, and copies only what changes', () => {
    const typed = { name: 'East gate', list: [1, 2, 3] };
    const answer = {
      list: [
        { sn_id: 'SIM-ALONE-01', uav_name: '单兵 D01', state: 1, at: null },
        { sn_id: 'X-1', uav_name: 'Mine', tags: ['巡检 A01', 'mine'] },
      ],
      text: { zh: '单兵 D01', en: '单兵 D01' },
      typed,
      when: new Date(0),
    };
    const shown = showTexts(answer, 'en');
    expect(shown.list[0]).toEqual({ sn_id: 'SIM-ALONE-01', uav_name: 'Soldier D01', state: 1, at: null });
    expect(shown.list[1]!.tags).toEqual(['Patrol A01', 'mine']);
    expect(shown.text).toBe(answer.text);
    expect(shown.typed).toBe(typed);
    expect(shown.when).toBe(answer.when);
    expect(answer.list[0]!.uav_name).toBe('单兵 D01');
    expect(showTexts(typed, 'zh')).toBe(typed);
    expect(showTexts('Nest A01', 'zh')).toBe('机场 A01');
    expect(showTexts(null, 'en')).toBeNull();
  });

  it('searches a demo name by the words of either language', () => {
    expect(demoSearchTerms('patrol')).toEqual(expect.arrayContaining(['patrol', '巡检', 'Patrol']));
    expect(demoSearchTerms('Nest A0')).toEqual(expect.arrayContaining(['Nest A0', '机场 A0']));
    expect(demoSearchTerms('巡检')).toEqual(expect.arrayContaining(['巡检', 'Patrol']));
    expect(demoSearchTerms('fixed nest')).toEqual(expect.arrayContaining(['固定机场']));
    expect(demoSearchTerms('East gate')).toEqual(['East gate']);
    expect(demoSearchTerms('')).toEqual(['']);
  });
});
