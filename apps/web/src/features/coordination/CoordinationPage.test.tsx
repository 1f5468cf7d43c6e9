import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { CollaborationGroup } from '@nest/contracts';
import type * as Fleet from '../../shared/fleet';
import { installMatchMedia, installResizeObserver } from '../../test/dom';

installMatchMedia();
installResizeObserver();

const call = vi.fn();
vi.mock('../../shared/request', () => ({ call: (...args: unknown[]) => call(...args) }));
let funList = ['com_getList', 'com_getOne', 'com_add', 'com_edit'];
vi.mock('../../shared/session', () => ({ useUser: () => ({ fun_list: funList }) }));
/** The live fleet as useFleet keeps it: A online, B offline (the server counted both online). */
let fleet = [
  { sn: 'A', state: 1, item: { sn_id: 'A', name: 'Nest A', state: 1, company: 'wk' } },
  { sn: 'B', state: 2, item: { sn_id: 'B', name: 'Nest B', state: 2, company: 'wk' } },
];
vi.mock('../../shared/fleet', async (importOriginal) => ({
  ...(await importOriginal<typeof Fleet>()),
  useFleet: () => ({ devices: fleet, loading: false, failed: false, reload: () => undefined }),
}));

const { default: CoordinationPage } = await import('./CoordinationPage');

const GROUP: CollaborationGroup = {
  id: 'g1',
  name: 'Harbour patrol',
  notes: 'night shift',
  company: 'wk',
  creator: 'Manager',
  create_time: 1_800_000_000,
  device_count: 2,
  online_count: 2,
  state: 10,
  device_ids: ['A', 'B'],
  user_ids: ['u9'],
  users: [{ u_id: 'u9', nick: 'Partner Li', company: 'gzGh' }],
};

describe('collaboration group screen', () => {
  beforeEach(() => {
    call.mockReset();
    call.mockImplementation((name: string) =>
      Promise.resolve(
        name === 'comGetList'
          ? { list: [GROUP], total: 1 }
          : name === 'comGetOne'
            ? { ...GROUP, devices: [{ sn_id: 'A', name: 'Nest A', type: 'stable', state: 1 }, { sn_id: 'B', name: 'Nest B', type: 'stable', state: 1 }] }
            : GROUP,
      ),
    );
    funList = ['com_getList', 'com_getOne', 'com_add', 'com_edit'];
    fleet = [
      { sn: 'A', state: 1, item: { sn_id: 'A', name: 'Nest A', state: 1, company: 'wk' } },
      { sn: 'B', state: 2, item: { sn_id: 'B', name: 'Nest B', state: 2, company: 'wk' } },
    ];
  });
  afterEach(() => cleanup());

  it('shows the live online count, members with their company, and the details with live statuses', async () => {
    render(<CoordinationPage />);
    await waitFor(() => expect(screen.getByText('Harbour patrol')).toBeTruthy());
    expect(call).toHaveBeenCalledWith('comGetList', { state: 10, page: 0, size: 10 });
    expect(screen.getByTestId('group-online-g1').textContent).toBe('1 / 2');
    expect(screen.getByText(/Partner Li/).textContent).toContain('Partner Li · ');
    fireEvent.click(screen.getByTestId('group-open-g1'));
    await waitFor(() => expect(call).toHaveBeenCalledWith('comGetOne', { id: 'g1' }));
    // The drawer lists B offline (live) although the server answered it online.
    await waitFor(() => expect(screen.getByTestId('group-device-B').textContent).toContain('离线'));
  });

  it('deletes (state 20) only after a confirmation, keeping members', async () => {
    render(<CoordinationPage />);
    await waitFor(() => expect(screen.getByText('Harbour patrol')).toBeTruthy());
    fireEvent.click(screen.getByTestId('group-delete-g1'));
    expect(call).not.toHaveBeenCalledWith('comEdit', expect.anything());
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith('comEdit', { id: 'g1', name: 'Harbour patrol', device_ids: '["A","B"]', notes: 'night shift', state: 20 }),
    );
  });

  it('refuses to save a group without a name or devices; hides changes without the functions', async () => {
    render(<CoordinationPage />);
    await waitFor(() => expect(screen.getByText('Harbour patrol')).toBeTruthy());
    fireEvent.click(screen.getByTestId('group-add'));
    fireEvent.click(await screen.findByTestId('group-save'));
    await waitFor(() => expect(screen.getByText('请至少选择一台设备')).toBeTruthy());
    expect(call).not.toHaveBeenCalledWith('comAdd', expect.anything());
    cleanup();
    funList = ['com_getList'];
    render(<CoordinationPage />);
    await waitFor(() => expect(screen.getByText('Harbour patrol')).toBeTruthy());
    expect(screen.queryByTestId('group-add')).toBeNull();
    expect(screen.queryByTestId('group-edit-g1')).toBeNull();
    expect(screen.queryByTestId('group-delete-g1')).toBeNull();
    expect(screen.queryByTestId('group-open-g1')).toBeNull();
  });
});
