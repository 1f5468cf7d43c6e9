/**
 * Hands a file to the browser's download (its save-file dialog or downloads folder) through a hidden link,
 * keeping the page: `href` is a URL the browser can fetch (a data: or blob: URL, or a same-origin path);
 * an empty `name` keeps the name the server gives.
 */
export function saveUrl(name: string, href: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Downloads bytes made in the page (an export) under `name`; the object URL is freed once the download took it. */
export function saveBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  saveUrl(name, url);
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
