import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MAP_PACKAGE_TEXTS, formatDateTime, type MapPackage } from '@nest/contracts';
import { installMatchMedia, installResizeObserver } from '../../test/dom';
import { applyLang } from '../../shared/i18n';
import { BASEMAP_STORAGE_KEY } from '../../shared/map/basemaps';
import { resetMapPackages } from '../../shared/map/packages';
import { storage } from '../../shared/storage';

installMatchMedia();
installResizeObserver();

// The test DOM has no WebGL: the screen shows its lists without the map.
vi.mock('../../shared/map/consoleMap', () => ({
  createConsoleMap: () => {
    throw new Error('no WebGL');
  },
}));
vi.mock('../../shared/push', () => ({ onPush: () => () => undefined }));
const call = vi.fn();
vi.mock('../../shared/request', () => ({ call: (...args: unknown[]) => call(...args), serviceBases: () => ({ zone: '/api/zone' }) }));
let funList = ['map_downList', 'map_packageAdd', 'map_packageList', 'map_packageDelete'];
vi.mock('../../shared/session', () => ({ useUser: () => ({ fun_list: funList }) }));
const success = vi.fn();
vi.mock('../../shared/notify', () => ({ notify: () => ({ success, error: vi.fn(), warning: vi.fn(), info: vi.fn() }) }));

const { default: OutLineMapPage } = await import('./OutLineMapPage');

const pkg = (over: Partial<MapPackage> = {}): MapPackage => ({
  id: '11111111-2222-4333-8444-555555555555', company_id: 'wk', name: 'Survey 2026', container: 'mbtiles', kind: 'raster', format: 'png',
  min_lat: 22.45, min_lng: 113.9, max_lat: 22.65, max_lng: 114.2, min_zoom: 8, max_zoom: 16, size: 5 * 1024 * 1024, attribution: '',
  u_id: 'u1', u_name: 'Li Lei', create_time: 1_700_000_000, ...over,
});

let packages: MapPackage[] = [];
let upload: (fields: unknown, opts: { onUploadProgress?: (f: number) => void }) => Promise<unknown> = async () => pkg();

function answer() {
  call.mockImplementation(async (name: string, fields: unknown, opts: { onUploadProgress?: (f: number) => void }) => {
    if (name === 'mapDownList') return { list: [], total: 0 };
    if (name === 'mapPackageList') return { list: packages, total: packages.length };
    if (name === 'mapPackageAdd') return upload(fields, opts);
    if (name === 'mapPackageDelete') {
      packages = [];
      return { id: 'x' };
    }
    throw new Error(`unexpected ${name}`);
  });
}

const choose = async (file: File) => {
  const input = within(screen.getByTestId('package-form')).getByText((_, el) => el?.tagName === 'INPUT' && (el as HTMLInputElement).type === 'file') as HTMLInputElement;
  await act(async () => {
    fireEvent.change(input, { target: { files: [file] } });
  });
};

describe.each(['en', 'zh'] as const)('offline map packages on the offline-map screen (%s)', (lang) => {
  beforeEach(() => {
    applyLang(lang);
    resetMapPackages();
    storage.set(BASEMAP_STORAGE_KEY, 'offline');
    call.mockReset();
    success.mockReset();
    funList = ['map_downList', 'map_packageAdd', 'map_packageList', 'map_packageDelete'];
    packages = [pkg(), pkg({ id: '99999999-2222-4333-8444-555555555555', name: '矢量路网', kind: 'vector', format: 'pbf', container: 'pmtiles', size: 800 * 1024 })];
    upload = async () => pkg();
    answer();
  });
  afterEach(() => cleanup());

  it('lists the packages with kind, format, zooms, bounds, size, uploader and date in the console formats', async () => {
    render(<OutLineMapPage />);
    const table = await screen.findByTestId('package-list');
    await waitFor(() => expect(within(table).getByText('Survey 2026')).toBeTruthy());
    const row = within(table).getByText('Survey 2026').closest('tr')!;
    const text = row.textContent ?? '';
    expect(text).toContain(lang === 'zh' ? '栅格' : 'Raster');
    expect(text).toContain('MBTILES · PNG');
    expect(text).toContain('8 - 16');
    expect(text).toContain('22.4500, 113.9000 – 22.6500, 114.2000');
    expect(text).toContain('5.0 MB');
    expect(text).toContain('Li Lei');
    expect(text).toContain(formatDateTime(1_700_000_000_000, lang));
    const vector = within(table).getByText('矢量路网').closest('tr')!;
    expect(vector.textContent).toContain(lang === 'zh' ? '矢量' : 'Vector');
    expect(vector.textContent).toContain('800 KB');
  });

  it('uses a package as the basemap of every map: stored as the choice and offered by the basemap switch', async () => {
    render(<OutLineMapPage />);
    const use = await screen.findByTestId(`package-use-${packages[0]!.id}`);
    fireEvent.click(use);
    expect(storage.get(BASEMAP_STORAGE_KEY)).toBe(`package:${packages[0]!.id}`);
    await screen.findByTestId(`package-in-use-${packages[0]!.id}`);
    expect(success).toHaveBeenCalled();
    // The switch on the map offers the company's packages.
    expect(screen.getByTestId('basemap-packages')).toBeTruthy();
  });

  it('uploads a package with progress, and says why the server refused one (the dialog stays open)', async () => {
    let progress: (f: number) => void = () => undefined;
    let finish: (v: unknown) => void = () => undefined;
    upload = (_fields, opts) => {
      progress = opts.onUploadProgress!;
      return new Promise((resolve) => (finish = resolve));
    };
    render(<OutLineMapPage />);
    fireEvent.click(await screen.findByTestId('package-upload'));
    await screen.findByTestId('package-form');

    // A file that is not a package: refused in the browser, nothing sent.
    await choose(new File(['x'], 'map.zip'));
    expect(screen.getByTestId('package-problem').textContent).toContain(MAP_PACKAGE_TEXTS.extension[lang]);
    expect((screen.getByTestId('package-send') as HTMLButtonElement).disabled).toBe(true);

    await choose(new File([new Uint8Array(2048)], 'site survey.mbtiles'));
    expect((screen.getByTestId('package-name').querySelector('input') ?? (screen.getByTestId('package-name') as HTMLInputElement)).value).toBe('site survey');
    // Path characters in the name.
    const nameInput = (screen.getByTestId('package-name').querySelector('input') ?? screen.getByTestId('package-name')) as HTMLInputElement;
    fireEvent.change(nameInput, { target: { value: '../etc' } });
    expect(screen.getByTestId('package-name-problem').textContent).toBe(MAP_PACKAGE_TEXTS.name[lang]);
    fireEvent.change(nameInput, { target: { value: 'Site survey' } });
    await waitFor(() => expect((screen.getByTestId('package-send') as HTMLButtonElement).disabled).toBe(false));

    fireEvent.click(screen.getByTestId('package-send'));
    await waitFor(() => expect(call).toHaveBeenCalledWith('mapPackageAdd', { name: 'Site survey' }, expect.objectContaining({ files: { file: expect.any(File) } })));
    act(() => progress(0.4));
    await waitFor(() => expect(screen.getByTestId('package-progress').textContent).toContain('40%'));
    await act(async () => finish(pkg({ name: 'Site survey' })));
    await waitFor(() => expect(screen.queryByTestId('package-form')).toBeNull());
    expect(success).toHaveBeenCalled();

    // The server's refusal is said in the dialog.
    upload = async () => {
      throw new Error(MAP_PACKAGE_TEXTS.notMbtiles[lang]);
    };
    fireEvent.click(screen.getByTestId('package-upload'));
    await screen.findByTestId('package-form');
    await choose(new File([new Uint8Array(16)], 'bad.mbtiles'));
    fireEvent.click(screen.getByTestId('package-send'));
    const refusal = await screen.findByTestId('package-refusal');
    expect(refusal.textContent).toContain(MAP_PACKAGE_TEXTS.notMbtiles[lang]);
    expect(screen.getByTestId('package-form')).toBeTruthy();
  });

  it('deletes a package after confirmation and reads the list again', async () => {
    render(<OutLineMapPage />);
    fireEvent.click(await screen.findByTestId(`package-delete-${packages[0]!.id}`));
    expect(call).not.toHaveBeenCalledWith('mapPackageDelete', expect.anything());
    fireEvent.click(await screen.findByTestId('package-delete-ok'));
    await waitFor(() => expect(call).toHaveBeenCalledWith('mapPackageDelete', { id: '11111111-2222-4333-8444-555555555555' }));
    await waitFor(() => expect(screen.queryByText('Survey 2026')).toBeNull());
  });

  it('a chosen package that no longer exists falls back to the offline basemap with a notice', async () => {
    storage.set(BASEMAP_STORAGE_KEY, 'package:00000000-0000-4000-8000-000000000000');
    render(<OutLineMapPage />);
    await waitFor(() => expect(screen.getByTestId('offline-map-canvas').dataset.basemap).toBe('offline'));
    expect(screen.getByTestId('basemap-package-gone').textContent).toContain(lang === 'zh' ? '已改用离线地图' : 'the offline map is shown instead');
  });
});
