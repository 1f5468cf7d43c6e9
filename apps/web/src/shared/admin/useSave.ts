import { useCallback, useState } from 'react';
import { t } from '../i18n';
import { notify } from '../notify';

/**
 * The save of an administration dialog: `save(send, onSaved)` marks the dialog busy, sends, says "Saved"
 * and calls `onSaved` on success; a failure was already shown by the request layer and leaves the dialog
 * open for another try.
 */
export function useSave(): { saving: boolean; save: (send: () => Promise<unknown>, onSaved: () => void) => Promise<void> } {
  const [saving, setSaving] = useState(false);
  const save = useCallback(async (send: () => Promise<unknown>, onSaved: () => void) => {
    setSaving(true);
    try {
      await send();
      notify().success(t('admin.saved'));
      onSaved();
    } catch {
      // Shown by the request layer.
    } finally {
      setSaving(false);
    }
  }, []);
  return { saving, save };
}
