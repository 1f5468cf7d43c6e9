import { useCallback, useState } from 'react';
import type { FormInstance } from 'antd';
import { useUpload, type UploadCallOptions } from '../admin/useUpload';
import { notify } from '../notify';
import { validValues } from './useFormSave';

/** A file chosen in an upload dialog, with what the browser's own check found wrong (null: nothing). */
export interface ChosenFile {
  file: File;
  problem: string | null;
}

interface Done {
  texts: {
    /** Under the progress bar while the file goes up. */
    uploading: (percent: number) => string;
    /** Under the full bar: the server checks or converts the file. */
    processing: string;
    /** Said when the upload succeeded. */
    uploaded: string;
  };
  onSaved: () => void;
  onClose: () => void;
}

/**
 * The send and cancel of a dialog that uploads one file with a form (firmware, teaching videos): send only
 * with a file that passed its checks and a valid form, with progress and an abort signal; on success say
 * so and call `onSaved`. Cancel aborts an upload in flight and closes. `modal` spreads into UploadModal.
 */
export function useUploadDialog<V, C extends ChosenFile>(
  form: FormInstance<V>,
  send: (values: V, chosen: C, opts: UploadCallOptions) => Promise<unknown>,
  done: Done,
): {
  chosen: C | null;
  setChosen: (chosen: C) => void;
  sending: boolean;
  modal: { sending: boolean; canSend: boolean; percent: number; progressText: string; onSend: () => void; onCancel: () => void };
} {
  const [chosen, setChosen] = useState<C | null>(null);
  const { percent, sending, run, cancel } = useUpload();
  const { texts, onSaved, onClose } = done;

  const onSend = useCallback(() => {
    if (!chosen || chosen.problem !== null) return;
    void (async () => {
      const values = await validValues(form);
      if (!values) return;
      if (await run((opts) => send(values, chosen, opts))) {
        notify().success(texts.uploaded);
        onSaved();
      }
    })();
  }, [chosen, form, run, send, texts.uploaded, onSaved]);
  const onCancel = useCallback(() => {
    cancel();
    onClose();
  }, [cancel, onClose]);

  const progressText = percent < 100 ? texts.uploading(percent) : texts.processing;
  return { chosen, setChosen, sending, modal: { sending, canSend: chosen !== null && chosen.problem === null, percent, progressText, onSend, onCancel } };
}
