import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { TeachingVideo } from '@nest/contracts';
import { installMatchMedia, installResizeObserver } from '../../test/dom';

installMatchMedia();
installResizeObserver();

const call = vi.fn();
vi.mock('../../shared/request', () => ({ call: (...args: unknown[]) => call(...args) }));
let funList = ['menu_teachingVideos'];
vi.mock('../../shared/session', () => ({ useUser: () => ({ fun_list: funList }) }));
vi.mock('../../shared/video/VideoPlayer', () => ({ default: ({ url }: { url: string }) => <div data-testid="player">{url}</div> }));

const { default: TeachingVideosPage, PAGE_SIZE } = await import('./TeachingVideosPage');

const video = (id: string, extra: Partial<TeachingVideo> = {}): TeachingVideo => ({
  id, title: `Lesson ${id}`, describe: `About ${id}`, notes: '', cla_type: 10, poster_url: `/api/video/teach/poster/${id}?e=1&s=x`,
  preview_url: `/api/video/teach/file/${id}?e=1&s=x`, file_name: `${id}.mp4`, mime: 'video/mp4', size_kb: 1024, duration: 75, state: 10,
  create_time: 1_700_000_000, modified_time: 1_700_000_000, ...extra,
});

describe('teaching videos screen', () => {
  beforeEach(() => {
    call.mockReset();
    call.mockImplementation((name: string) => {
      if (name === 'teachList') return Promise.resolve({ list: [video('a'), video('b', { cla_type: 0, poster_url: '', duration: null })], total: 2 });
      if (name === 'videoDeviceTypeList') return Promise.resolve([{ cla_type: 0, cla_name: 'x', count: 1 }, { cla_type: 10, cla_name: 'y', count: 1 }]);
      return Promise.resolve(null);
    });
    funList = ['menu_teachingVideos'];
  });
  afterEach(() => cleanup());

  it('shows cards with poster, title, description, kind and length; plays in a dialog', async () => {
    render(<TeachingVideosPage />);
    await waitFor(() => expect(screen.getByTestId('teach-a')).toBeTruthy());
    expect(call).toHaveBeenCalledWith('teachList', { page: 0, size: PAGE_SIZE });
    const a = screen.getByTestId('teach-a');
    expect(a.querySelector('img')?.getAttribute('src')).toBe(video('a').poster_url);
    expect(a.textContent).toContain('Lesson a');
    expect(a.textContent).toContain('About a');
    expect(a.textContent).toContain('00:01:15');
    expect(screen.getByTestId('teach-b').querySelector('img')).toBeNull();
    // Viewers see no management buttons.
    expect(screen.queryByTestId('teach-upload')).toBeNull();
    expect(screen.queryByTestId('teach-edit-a')).toBeNull();
    fireEvent.click(a.querySelector('button')!);
    await waitFor(() => expect(screen.getByTestId('player').textContent).toBe(video('a').preview_url));
  });

  it('filters by a kind that has videos', async () => {
    render(<TeachingVideosPage />);
    await waitFor(() => expect(screen.getByTestId('teach-a')).toBeTruthy());
    fireEvent.mouseDown(screen.getByTestId('teach-filter-kind').querySelector('.ant-select-selector') ?? screen.getByTestId('teach-filter-kind'));
    const option = await screen.findByText(/（1）|\(1\)/);
    fireEvent.click(option);
    await waitFor(() => expect(call).toHaveBeenCalledWith('teachList', { page: 0, size: PAGE_SIZE, cla_type: 10 }));
  });

  it('offers upload, edit and delete to a super administrator (the videos are one catalogue for every company)', async () => {
    funList = ['super_administrator'];
    render(<TeachingVideosPage />);
    await waitFor(() => expect(screen.getByTestId('teach-a')).toBeTruthy());
    expect(screen.getByTestId('teach-upload')).toBeTruthy();
    expect(screen.getByTestId('teach-edit-a')).toBeTruthy();
    expect(screen.getByTestId('teach-delete-b')).toBeTruthy();
  });

  it("offers none of them to a company's administrator holding the former write functions", async () => {
    funList = ['menu_teachingVideos', 'teach_add', 'teach_edit'];
    render(<TeachingVideosPage />);
    await waitFor(() => expect(screen.getByTestId('teach-a')).toBeTruthy());
    expect(screen.queryByTestId('teach-upload')).toBeNull();
    expect(screen.queryByTestId('teach-edit-a')).toBeNull();
    expect(screen.queryByTestId('teach-delete-b')).toBeNull();
  });
});
