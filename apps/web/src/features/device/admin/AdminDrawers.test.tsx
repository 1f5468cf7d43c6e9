import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { installMatchMedia, installResizeObserver } from '../../../test/dom';

const useCall = vi.fn();
vi.mock('../../../shared/query', () => ({ useCall: (...args: unknown[]) => useCall(...args) }));
let funList: string[] = [];
vi.mock('../../../shared/session', () => ({ useUser: () => ({ fun_list: funList }) }));

const { AdminDrawers } = await import('./AdminDrawers');

beforeAll(() => {
  installMatchMedia();
  installResizeObserver();
});
afterEach(() => {
  cleanup();
  useCall.mockReset();
});

const LOGS: Record<string, unknown[]> = {
  commandLog: [{ id: 'c1', nick: '张工', cmd_type: 0, control_cmd: 2, create_time: 1_700_000_000, outcome: 'refused', reason: 0 }],
  alternateList: [{ id: 'a1', timestamp: 1_700_000_000, reason: 3, solution: 99, place_int: 99, altn_int: 0 }],
};
const answer = (name: string, fields: unknown) => ({ isError: false, isFetching: false, data: fields ? { list: LOGS[name], total: 1 } : undefined });

describe("a device's log drawers", () => {
  it('offers only the logs the user may read, and none without either function', () => {
    useCall.mockImplementation(answer);
    funList = [];
    const { unmount } = render(<AdminDrawers sn="N1" />);
    expect(screen.queryByTestId('device-admin')).toBeNull();
    unmount();
    funList = ['alternate_list'];
    render(<AdminDrawers sn="N1" />);
    expect(screen.queryByTestId('open-command-log')).toBeNull();
    expect(screen.getByTestId('open-alternates')).toBeTruthy();
  });

  it("opens a log, reads the device's latest 200 entries and labels its codes", async () => {
    useCall.mockImplementation(answer);
    funList = ['super_administrator'];
    render(<AdminDrawers sn="N1" />);
    fireEvent.click(screen.getByTestId('open-command-log'));
    const log = await waitFor(() => screen.getByTestId('command-log'));
    expect(useCall).toHaveBeenCalledWith('commandLog', { sn_id: 'N1', page: 0, size: 200 });
    expect(within(log).getByText('张工')).toBeTruthy();
    expect(within(log).getByText('继续流程')).toBeTruthy();
    expect(within(log).getByText('检查未通过')).toBeTruthy();

    fireEvent.click(screen.getByTestId('open-alternates'));
    const alt = await waitFor(() => screen.getByTestId('alternate-log'));
    expect(within(alt).getByText('电量不足以返回机场')).toBeTruthy();
    // Codes the console does not know stay readable as they came.
    expect(within(alt).getAllByText('99').length).toBe(2);
    expect(within(alt).getByText('成功')).toBeTruthy();
  });
});
