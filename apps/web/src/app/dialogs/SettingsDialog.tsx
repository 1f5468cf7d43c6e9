import type { ReactNode } from 'react';
import { Button, Form, Modal, Radio } from 'antd';
import { DIALOG_LABEL_WIDTH, THEMES, type Lang, type Theme } from '@nest/contracts';
import { useI18n, type MessageKey } from '../../shared/i18n';
import { setTheme, useTheme } from '../../shared/theme';
import { switchLanguage } from '../language';

const THEME_TEXT: Record<Theme, { name: MessageKey; hint: MessageKey }> = {
  default: { name: 'settings.themeDefault', hint: 'settings.themeDefaultHint' },
  concise: { name: 'settings.themeConcise', hint: 'settings.themeConciseHint' },
};

/** System settings: language (saved, then the page reloads) and theme (saved, applied at once). */
export function SettingsDialog({ onClose }: { onClose: () => void }): ReactNode {
  const { t, lang } = useI18n();
  const theme = useTheme();
  return (
    <Modal
      open
      title={t('settings.title')}
      width={560}
      centered
      onCancel={onClose}
      destroyOnHidden
      modalRender={(node) => <div data-testid="settings-dialog">{node}</div>}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('common.close')}
        </Button>
      }
    >
      <Form className="dialog-form" labelCol={{ flex: DIALOG_LABEL_WIDTH }} wrapperCol={{ flex: 1 }} labelAlign="right">
        <Form.Item label={t('settings.language')}>
          <Radio.Group value={lang} onChange={(e) => switchLanguage(e.target.value as Lang)}>
            <Radio value="zh" data-testid="settings-language-zh">
              {t('settings.languageZh')}
            </Radio>
            <Radio value="en" data-testid="settings-language-en">
              {t('settings.languageEn')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item label={t('settings.theme')}>
          <Radio.Group value={theme} onChange={(e) => setTheme(e.target.value as Theme)} className="theme-choices">
            {THEMES.map((name) => (
              <Radio key={name} value={name} data-testid={`settings-theme-${name}`} className="theme-choice">
                <span className={`theme-swatch theme-swatch-${name}`} aria-hidden="true">
                  <i />
                  <b />
                </span>
                <span className="theme-choice-text">
                  <strong>{t(THEME_TEXT[name].name)}</strong>
                  <small>{t(THEME_TEXT[name].hint)}</small>
                </span>
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
      </Form>
    </Modal>
  );
}
