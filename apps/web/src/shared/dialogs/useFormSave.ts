import { useCallback } from 'react';
import type { FormInstance } from 'antd';
import { useSave } from '../admin/useSave';

/** The form's values when every rule passes; null when one fails (its message then stands beside the field). */
export function validValues<V>(form: FormInstance<V>): Promise<V | null> {
  return form.validateFields().catch(() => null);
}

/**
 * The save of a dialog built on an antd form: `submit()` checks the form, sends its values, says "Saved" and
 * calls `onSaved`; an invalid form sends nothing, and a refusal (shown by the request layer) keeps the dialog
 * open for another try.
 */
export function useFormSave<V>(form: FormInstance<V>, send: (values: V) => Promise<unknown>, onSaved: () => void): { saving: boolean; submit: () => void } {
  const { saving, save } = useSave();
  const submit = useCallback(() => {
    void validValues(form).then((values) => (values ? save(() => send(values), onSaved) : undefined));
  }, [form, send, onSaved, save]);
  return { saving, submit };
}
