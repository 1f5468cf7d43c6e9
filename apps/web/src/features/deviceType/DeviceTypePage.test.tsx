import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { DeviceType } from '@nest/contracts';
import { installMatchMedia, installResizeObserver } from '../../test/dom';

installMatchMedia();
installResizeObserver();

const call = vi.fn();
vi.mock('../../shared/request', () => ({ call: (...args: unknown[]) => call(...args) }));
// The device types are one catalogue for every company: only a super administrator changes them.
let funList = ['super_administrator'];
vi.mock('../../shared/session', () => ({ useUser: () => ({ fun_list: funList }) }));

const { default: DeviceTypePage } = await import('./DeviceTypePage');

const TYPE: DeviceType = {
  id: 't1', cla_type: 100, cla_name: '移动机场', value: 'mobile', stream: 2, state: 10, notes: 'truck', create_time: 1_700_000_000, modified_time: 1_700_000_000,
};

describe('device type screen', () => {
  beforeEach(() => {
    call.mockReset();
    call.mockImplementation((name: string) => Promise.resolve(name === 'deviceTypeAdminList' ? { list: [TYPE], total: 1 } : TYPE));
    funList = ['super_administrator'];
  });
  afterEach(() => cleanup());

  it('disables after a confirmation, keeping the other fields', async () => {
    render(<DeviceTypePage />);
    await waitFor(() => expect(screen.getByText('truck')).toBeTruthy());
    fireEvent.click(screen.getByTestId('device-type-state-mobile'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith('deviceTypeEdit', { id: 't1', cla_type: 100, cla_name: '移动机场', value: 'mobile', stream: 2, notes: 'truck', state: 20 }),
    );
  });

  it('deletes (state 30) only after a confirmation', async () => {
    render(<DeviceTypePage />);
    await waitFor(() => expect(screen.getByText('truck')).toBeTruthy());
    fireEvent.click(screen.getByTestId('device-type-delete-mobile'));
    expect(call).not.toHaveBeenCalledWith('deviceTypeEdit', expect.anything());
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(call).toHaveBeenCalledWith('deviceTypeEdit', expect.objectContaining({ id: 't1', state: 30 })));
  });

  it("offers no changes to a company's administrator, even one holding the former write functions", async () => {
    funList = ['deviceType_adminList', 'deviceType_add', 'deviceType_edit'];
    render(<DeviceTypePage />);
    await waitFor(() => expect(screen.getByText('truck')).toBeTruthy());
    expect(screen.queryByTestId('device-type-add')).toBeNull();
    expect(screen.queryByTestId('device-type-edit-mobile')).toBeNull();
    expect((screen.getByTestId('device-type-state-mobile') as HTMLButtonElement).disabled).toBe(true);
  });
});
