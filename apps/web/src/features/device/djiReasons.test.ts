import { describe, expect, it } from 'vitest';
import { CmdType, DjiResult, PushMsgId, commandReasonText } from '@nest/contracts';
import { pushFailureText } from '../../shared/push';

/**
 * A DJI dock refuses with DJI result codes, not the console's CommandReason: a refused command shows the
 * server's text, and without one the DJI code's own text in the user's language, never the generic refusal.
 */
describe('command refusals of a DJI dock', () => {
  const generic = (lang: 'zh' | 'en') => commandReasonText(-1, lang);

  for (const lang of ['zh', 'en'] as const) {
    it(`shows the server's text of a DJI reason, else the code's own text (${lang})`, () => {
      const data = { cmd_type: CmdType.NAVIGATION, reason: 314005 };
      const sent = DjiResult.label(314005, lang);
      expect(pushFailureText(PushMsgId.CONTROL, data, sent, lang)).toBe(sent);
      expect(pushFailureText(PushMsgId.CONTROL, data, '', lang)).toBe(sent);
      expect(pushFailureText(PushMsgId.CONTROL, { ...data, reason: 900001 }, '', lang)).toBe(DjiResult.label(900001, lang));
      expect(DjiResult.label(900001, lang)).not.toBe(generic(lang));
      // A code nobody knows: the server's words are shown as they came.
      expect(pushFailureText(PushMsgId.CONTROL, { ...data, reason: 777777 }, 'Dock says no', lang)).toBe('Dock says no');
    });
  }
});
