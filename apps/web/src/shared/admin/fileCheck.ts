/** Problems every chosen upload file is checked for before its content is read. */
export type BasicFileProblem = 'name' | 'empty' | 'tooLarge';

/**
 * The checks every upload dialog makes first: the name (the feature's own rule), an empty file and the
 * size limit. Null when the file passes them.
 */
export function basicFileProblem(file: File, nameOk: (name: string) => boolean, maxBytes: number): BasicFileProblem | null {
  if (!nameOk(file.name)) return 'name';
  if (file.size === 0) return 'empty';
  if (file.size > maxBytes) return 'tooLarge';
  return null;
}

/** The first `count` bytes of a file, for a magic-number or header check. */
export async function headBytes(file: Blob, count: number): Promise<Uint8Array> {
  const blob = file.slice(0, count);
  // Blob.arrayBuffer is missing in some test DOMs; FileReader works everywhere.
  if (typeof blob.arrayBuffer === 'function') return new Uint8Array(await blob.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(blob);
  });
}

/** Megabytes for a size-limit text (whole MB). */
export const megabytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;
