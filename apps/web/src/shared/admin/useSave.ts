import { useCallback, useState } from 'react';
import { t } from '../i18n';
import { notify } from '../notify';

/**
 * The save of an administration dialog: `save(send, onSaved)` marks the dialog busy, sends, says "Saved"
 * and calls `onSaved` with the answer on success; a failure was already shown by the request layer and
 * leaves the dialog open for another try.
 */
export function useSave(): { saving: boolean; save: <A>(send: () => Promise<A>, onSaved: (answer: A) => void) => Promise<void> } {
  const [saving, setSaving] = useState(false);
  const save = useCallback(async <A>(send: () => Promise<A>, onSaved: (answer: A) => void) => {
    setSaving(true);
    try {
      const answer = await send();
      notify().success(t('admin.saved'));
      onSaved(answer);
    } catch {
      // Shown by the request layer.
    } finally {
      setSaving(false);
    }
  }, []);
  return { saving, save };
}
