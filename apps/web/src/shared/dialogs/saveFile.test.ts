import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveBlob, saveUrl } from './saveFile';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** The links clicked, as the browser would see them when clicked. */
function watchClicks(): { name: string; href: string; inPage: boolean }[] {
  const clicked: { name: string; href: string; inPage: boolean }[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ name: this.download, href: this.href, inPage: document.body.contains(this) });
  });
  return clicked;
}

describe('saving a file from the page', () => {
  it('clicks a hidden link named for the file, and takes it out of the page again', () => {
    const clicked = watchClicks();
    saveUrl('chart.png', 'data:image/png;base64,AAAA');
    expect(clicked).toEqual([{ name: 'chart.png', href: 'data:image/png;base64,AAAA', inPage: true }]);
    expect(document.querySelectorAll('a').length).toBe(0);
  });

  it('downloads bytes made in the page through an object URL, freed after the download took it', () => {
    vi.useFakeTimers();
    const created: Blob[] = [];
    const revoked: string[] = [];
    URL.createObjectURL = (b: Blob) => (created.push(b), 'blob:test/1');
    URL.revokeObjectURL = (u: string) => void revoked.push(u);
    const clicked = watchClicks();
    const blob = new Blob(['a,b\n1,2'], { type: 'text/csv' });
    saveBlob('table.csv', blob);
    expect(created).toEqual([blob]);
    expect(clicked).toEqual([{ name: 'table.csv', href: 'blob:test/1', inPage: true }]);
    expect(revoked).toEqual([]);
    vi.runAllTimers();
    expect(revoked).toEqual(['blob:test/1']);
  });
});
