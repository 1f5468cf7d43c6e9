import { afterEach, describe, expect, it, vi } from 'vitest';
import { Suspense, type ComponentType } from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { applyLang } from '../../shared/i18n';
import { screenFor } from '../screens';
import { LoadBoundary, isChunkLoadError } from './LoadFailed';

const chunkError = () => new TypeError('Failed to fetch dynamically imported module: http://localhost/nest/assets/UserManagePage-0ld.js');

function renderScreen(filePath: string, loaders: Record<string, () => Promise<{ default: ComponentType }>>, onReload = vi.fn()) {
  const Screen = screenFor(filePath, loaders)!;
  render(
    <LoadBoundary key={filePath} onReload={onReload}>
      <Suspense fallback={<span>loading</span>}>
        <Screen />
      </Suspense>
    </LoadBoundary>,
  );
  return onReload;
}

describe('a screen whose chunk fails to load', () => {
  afterEach(() => {
    cleanup();
    applyLang('zh');
  });

  it('recognises the browsers\' chunk failures and nothing else', () => {
    expect(isChunkLoadError(chunkError())).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /nest/assets/x.css'))).toBe(true);
    expect(isChunkLoadError(new Error('x is undefined'))).toBe(false);
  });

  it('shows the message with a reload button in both languages, and reloads on click', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (const lang of ['zh', 'en'] as const) {
        applyLang(lang);
        const onReload = renderScreen(`features/broken-${lang}`, { [`features/broken-${lang}`]: () => Promise.reject(chunkError()) });
        const box = await screen.findByTestId('load-failed');
        expect(box.textContent).toContain(lang === 'zh' ? '页面加载失败' : 'This page could not be loaded');
        expect(box.textContent).toContain(lang === 'zh' ? '控制台可能已经更新' : 'The console may have been updated');
        const reload = screen.getByTestId('load-failed-reload');
        expect(reload.textContent).toBe(lang === 'zh' ? '重新加载' : 'Reload');
        fireEvent.click(reload);
        expect(onReload).toHaveBeenCalledOnce();
        cleanup();
      }
    } finally {
      vi.mocked(console.error).mockRestore();
    }
  });

  it('says the page failed (not an update) for another render error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const Throws: ComponentType = () => {
        throw new Error('x is undefined');
      };
      render(
        <LoadBoundary>
          <Throws />
        </LoadBoundary>,
      );
      expect((await screen.findByTestId('load-failed')).textContent).toContain('页面出现错误');
    } finally {
      vi.mocked(console.error).mockRestore();
    }
  });

  it('fetches the chunk again on the next visit instead of keeping the failed import', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      let calls = 0;
      const Page: ComponentType = () => <p data-testid="retried-page">ok</p>;
      const loaders = {
        'features/retried': () => {
          calls += 1;
          return calls === 1 ? Promise.reject(chunkError()) : Promise.resolve({ default: Page });
        },
      };
      renderScreen('features/retried', loaders);
      await screen.findByTestId('load-failed');
      cleanup();
      await act(async () => renderScreen('features/retried', loaders));
      expect(await screen.findByTestId('retried-page')).toBeTruthy();
      expect(calls).toBe(2);
    } finally {
      vi.mocked(console.error).mockRestore();
    }
  });
});
