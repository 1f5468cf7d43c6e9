import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { act, cleanup, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { calls, type DeviceListItem } from '@nest/contracts';
import { installMatchMedia, installResizeObserver, makeUser } from '../../test/dom';
import { setUser } from '../session';
import { useCan } from './useCan';
import { DeviceSelect } from './DeviceSelect';
import { actionsColumn, notesColumn, recordStateColumn } from './columns';
import { TwoLines } from './parts';
import { StatusTable } from './StatusParts';
import { useFilters } from './useFilters';

beforeAll(() => {
  installMatchMedia();
  installResizeObserver();
});
afterEach(() => cleanup());

describe('screen filters', () => {
  it('changes the filters given and keeps the others', () => {
    const { result } = renderHook(() => useFilters<{ search: string; state?: number }>({ search: '' }));
    act(() => result.current[1]({ state: 20 }));
    act(() => result.current[1]({ search: 'B01' }));
    expect(result.current[0]).toEqual({ search: 'B01', state: 20 });
    act(() => result.current[1]({ state: undefined }));
    expect(result.current[0]).toEqual({ search: 'B01', state: undefined });
  });
});

const device = (sn_id: string, airport_name: string) => ({ sn_id, airport_name, uav_name: '', type: 'stable' }) as unknown as DeviceListItem;

describe('device filter', () => {
  it('offers the devices by name and serial number (or by name alone) and hands over the one chosen', () => {
    const onChange = vi.fn();
    const devices = [device('SN1', 'North dock'), device('SN2', 'South dock')];
    const { rerender } = render(<DeviceSelect devices={devices} value={null} onChange={onChange} placeholder="All devices" width={200} testId="devices" />);
    fireEvent.mouseDown(screen.getByTestId('devices').querySelector('.ant-select-selector') ?? screen.getByRole('combobox'));
    fireEvent.click(screen.getByText('South dock (SN2)'));
    expect(onChange).toHaveBeenLastCalledWith('SN2');
    rerender(<DeviceSelect devices={devices} value="SN2" onChange={onChange} placeholder="All devices" width={200} testId="devices" showSn={false} />);
    expect(screen.getByTestId('devices').textContent).toContain('South dock');
    expect(screen.getByTestId('devices').textContent).not.toContain('SN2');
  });
});

describe('status screen device table', () => {
  const columns = [{ title: 'Device', key: 'sn', render: (_: unknown, r: { sn_id: string }) => r.sn_id }];
  it('lists the devices, and tells no devices from none matching', () => {
    const { rerender } = render(<StatusTable rows={[{ sn_id: 'SN1' }]} loading={false} columns={columns} noDevices={false} empty="No devices" noMatch="None match" testId="status" />);
    expect(screen.getByText('SN1')).toBeTruthy();
    rerender(<StatusTable rows={[]} loading={false} columns={columns} noDevices={false} empty="No devices" noMatch="None match" testId="status" />);
    expect(screen.getByText('None match')).toBeTruthy();
    rerender(<StatusTable rows={[]} loading={false} columns={columns} noDevices empty="No devices" noMatch="None match" testId="status" />);
    expect(screen.getByText('No devices')).toBeTruthy();
  });
});

describe('two-line cell', () => {
  it('shows the note under the main text with its title and test id, and no second line without a note', () => {
    const { container, rerender } = render(<TwoLines main="Patrol B01" note="route.kmz" noteTitle="route.kmz" noteTestId="note" />);
    expect(container.querySelector('span')?.textContent).toBe('Patrol B01');
    expect(screen.getByTestId('note').textContent).toBe('route.kmz');
    expect(screen.getByTestId('note').getAttribute('title')).toBe('route.kmz');
    rerender(<TwoLines main="Patrol B01" note="" />);
    expect(container.querySelector('small')).toBeNull();
  });
});

describe('call check', () => {
  afterEach(() => setUser(null, false));

  it('follows the signed-in user: the calls whose function the user holds, none when signed out', () => {
    const taskAdd = calls.taskAdd.access as string;
    const { result } = renderHook(() => useCan());
    expect(result.current('taskAdd')).toBe(false);
    act(() => setUser(makeUser([taskAdd]), false));
    expect(result.current('taskAdd')).toBe(true);
    expect(result.current('userAdd')).toBe(false);
  });
});

describe('common admin columns', () => {
  type Row = { id: string; state: number; notes: string };
  const rows: Row[] = [
    { id: 'a', state: 10, notes: 'night shift' },
    { id: 'b', state: 20, notes: '' },
  ];

  it('shows the record state as a tag, the notes or "--", and the actions only to who may act', () => {
    const columns = [recordStateColumn<Row>(90), notesColumn<Row>(100), ...actionsColumn<Row>(true, (r) => <button>edit {r.id}</button>)];
    expect(actionsColumn<Row>(false, () => null)).toEqual([]);
    const cells = rows.map((r) => columns.map((c) => ('render' in c && c.render ? c.render(undefined, r, 0) : null)));
    render(<table><tbody>{cells.map((row, i) => <tr key={i}>{row.map((cell, j) => <td key={j}>{cell as ReactNode}</td>)}</tr>)}</tbody></table>);
    expect(screen.getByText('night shift')).toBeTruthy();
    expect(screen.getByText('--')).toBeTruthy();
    expect(screen.getByText('edit b')).toBeTruthy();
    expect(document.querySelectorAll('.ant-tag-green').length).toBe(1);
  });
});
