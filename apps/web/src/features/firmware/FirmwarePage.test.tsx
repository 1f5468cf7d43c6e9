import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { buildWkimg } from '@nest/formats';
import type { Firmware } from '@nest/contracts';
import { installMatchMedia, installResizeObserver } from '../../test/dom';

installMatchMedia();
installResizeObserver();

const call = vi.fn();
vi.mock('../../shared/request', () => ({ call: (...args: unknown[]) => call(...args) }));
// Firmware packages are one catalogue for every company: only a super administrator changes them.
let funList = ['super_administrator'];
vi.mock('../../shared/session', () => ({ useUser: () => ({ fun_list: funList }) }));

const { default: FirmwarePage } = await import('./FirmwarePage');

const ROM: Firmware = {
  id: 'r1', type: 17, version_code: 100, version_name: '1.0.0', state: 10, description: '首个版本', description_en: 'First release',
  file_name: 'nest.wkimg', size_kb: 2048, md5: 'd41d8cd98f00b204e9800998ecf8427e', sha256: 'e'.repeat(64), url: '/api/device/rom/download/r1?e=1&s=x',
  create_time: 1_700_000_000, modified_time: 1_700_000_000,
};
const pkg = buildWkimg({ type: 17, version_code: 101, version_name: '1.0.1', model: '' }, new Uint8Array(64).fill(3), () => 'a'.repeat(64));

function answer(name: string) {
  if (name === 'romList') return Promise.resolve({ list: [ROM], total: 1 });
  return Promise.resolve(null);
}

const choose = async (file: File) => {
  const input = document.querySelector('input[type=file]') as HTMLInputElement;
  await act(async () => {
    fireEvent.change(input, { target: { files: [file] } });
  });
};

describe('firmware screen', () => {
  beforeEach(() => {
    call.mockReset();
    call.mockImplementation(answer);
    funList = ['super_administrator'];
  });
  afterEach(() => cleanup());

  it('lists packages with both descriptions, size, md5 and a download link', async () => {
    render(<FirmwarePage />);
    await waitFor(() => expect(screen.getByText('1.0.0')).toBeTruthy());
    expect(screen.getByText('首个版本')).toBeTruthy();
    expect(screen.getByText('First release')).toBeTruthy();
    expect(screen.getByText('2.0 MB')).toBeTruthy();
    expect(screen.getByTestId('firmware-download-100').getAttribute('href')).toBe(ROM.url);
    expect(call).toHaveBeenCalledWith('romList', { search: '', page: 0, size: 10 });
  });

  it("hides upload, edit and delete from a company's administrator, even one holding the former write functions", async () => {
    funList = ['rom_list', 'rom_add', 'rom_edit'];
    render(<FirmwarePage />);
    await waitFor(() => expect(screen.getByText('1.0.0')).toBeTruthy());
    expect(screen.queryByTestId('firmware-upload')).toBeNull();
    expect(screen.queryByTestId('firmware-edit-100')).toBeNull();
    expect(screen.queryByTestId('firmware-delete-100')).toBeNull();
  });

  it('checks the chosen file before sending, fills the version from its header and shows the upload progress', async () => {
    render(<FirmwarePage />);
    await waitFor(() => expect(screen.getByTestId('firmware-upload')).toBeTruthy());
    fireEvent.click(screen.getByTestId('firmware-upload'));
    await waitFor(() => expect(screen.getByTestId('firmware-form')).toBeTruthy());

    await choose(new File([new TextEncoder().encode('not a package')], 'fake.wkimg'));
    await waitFor(() => expect(screen.getByTestId('firmware-problem')).toBeTruthy());
    expect((screen.getByTestId('firmware-send') as HTMLButtonElement).disabled).toBe(true);

    await choose(new File([new Uint8Array(pkg)], 'nest-101.wkimg'));
    await waitFor(() => expect((screen.getByTestId('firmware-version-code') as HTMLInputElement).value).toBe('101'));
    expect(screen.queryByTestId('firmware-problem')).toBeNull();
    expect((screen.getByTestId('firmware-version-name') as HTMLInputElement).value).toBe('1.0.1');
    fireEvent.change(screen.getByTestId('firmware-description'), { target: { value: '修复' } });
    fireEvent.change(screen.getByTestId('firmware-description-en'), { target: { value: 'Fixes' } });

    let progress: ((f: number) => void) | undefined;
    let finish: (v: unknown) => void = () => {};
    call.mockImplementation((name: string, _fields: unknown, opts?: { onUploadProgress?: (f: number) => void }) => {
      if (name !== 'romAdd') return answer(name);
      progress = opts?.onUploadProgress;
      return new Promise((resolve) => (finish = resolve));
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('firmware-send'));
    });
    await waitFor(() => expect(progress).toBeDefined());
    const [, fields, opts] = call.mock.calls.find((c) => c[0] === 'romAdd')!;
    expect(fields).toEqual({ type: 17, version_code: 101, version_name: '1.0.1', description: '修复', description_en: 'Fixes' });
    expect((opts.files.file as File).name).toBe('nest-101.wkimg');
    await act(async () => progress!(0.42));
    expect(screen.getByTestId('firmware-progress').textContent).toContain('42%');
    await act(async () => progress!(1));
    expect(screen.getByTestId('firmware-progress').textContent).toMatch(/校验|checking/);
    await act(async () => finish({ ...ROM, id: 'r2', version_code: 101 }));
    await waitFor(() => expect(screen.queryByTestId('firmware-form')).toBeNull());
  });
});
