export { FormDialog } from './FormDialog';
export { SaveDialog } from './SaveDialog';
export type { SaveDialogProps } from './SaveDialog';
export { useFormSave, validValues } from './useFormSave';
export { useFieldErrors } from './useFieldErrors';
export type { FieldStatus } from './useFieldErrors';
export { useUploadDialog } from './useUploadDialog';
export type { ChosenFile } from './useUploadDialog';
export { saveBlob, saveUrl } from './saveFile';
