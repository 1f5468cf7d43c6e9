import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { installMatchMedia } from '../../test/dom';
import { t } from '../i18n';
import { registerMessages, setNotifier, type MessageNotifier } from '../notify';
import { useEditDialog } from './useEditDialog';
import { useRowChange } from './useRowChange';

const success = vi.fn();
const messages: MessageNotifier = { success, error: vi.fn(), warning: vi.fn(), info: vi.fn() };

beforeAll(() => installMatchMedia());
beforeEach(() => {
  success.mockReset();
  // Through the message host, whatever another file of this worker left as the notifier.
  setNotifier(null);
  registerMessages(messages);
});
afterEach(() => {
  cleanup();
  registerMessages(null);
});

/** A row with a delete action and a switch-like change marked busy while it runs. */
function Row({ send, reload }: { send: () => Promise<unknown>; reload: () => Promise<void> }): ReactNode {
  const rows = useRowChange(reload);
  return (
    <>
      {rows.holder}
      <span data-testid="busy">{rows.busy ?? 'idle'}</span>
      <button onClick={() => rows.askDelete('Patrol B01', send)}>delete</button>
      <button onClick={() => rows.ask({ title: 'Disable', content: 'Disable B01?', send, done: 'Disabled', busyKey: 'b01' })}>disable</button>
    </>
  );
}

describe('row changes of an administration table', () => {
  it('asks first, then sends, says it is done and reads the table again', async () => {
    const send = vi.fn(() => Promise.resolve({}));
    const reload = vi.fn(() => Promise.resolve());
    render(<Row send={send} reload={reload} />);
    fireEvent.click(screen.getByText('delete'));
    expect(await screen.findByText(t('admin.confirmDelete', { name: 'Patrol B01' }))).toBeTruthy();
    expect(send).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(send).toHaveBeenCalledTimes(1);
    expect(success).toHaveBeenCalledWith(t('admin.deleted'));
  });

  it('marks the row busy until the change and the reload are over', async () => {
    let finishReload = () => {};
    const reload = vi.fn(() => new Promise<void>((resolve) => (finishReload = resolve)));
    render(<Row send={() => Promise.resolve()} reload={reload} />);
    fireEvent.click(screen.getByText('disable'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(screen.getByTestId('busy').textContent).toBe('b01');
    expect(success).toHaveBeenCalledWith('Disabled');
    act(() => finishReload());
    await waitFor(() => expect(screen.getByTestId('busy').textContent).toBe('idle'));
  });

  it('says nothing of success when the call fails, and still reads the table again', async () => {
    const reload = vi.fn(() => Promise.resolve());
    render(<Row send={() => Promise.reject(new Error('refused'))} reload={reload} />);
    fireEvent.click(screen.getByText('delete'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(success).not.toHaveBeenCalled();
  });
});

function Editor({ reload }: { reload: () => void }): ReactNode {
  const editor = useEditDialog<string | null>(reload);
  return (
    <>
      <button onClick={() => editor.show(null)}>add</button>
      <button onClick={() => editor.show('B01')}>edit</button>
      {editor.open && (
        <div data-testid="dialog">
          {editor.open.of ?? 'new'}
          <button onClick={editor.dialog.onClose}>cancel</button>
          <button onClick={editor.dialog.onSaved}>save</button>
        </div>
      )}
    </>
  );
}

describe('add / edit dialog of an administration table', () => {
  it('opens for a new row or a given one; cancel closes, save closes and reads the table again', () => {
    const reload = vi.fn();
    render(<Editor reload={reload} />);
    expect(screen.queryByTestId('dialog')).toBeNull();
    fireEvent.click(screen.getByText('add'));
    expect(screen.getByTestId('dialog').textContent).toContain('new');
    fireEvent.click(screen.getByText('cancel'));
    expect(screen.queryByTestId('dialog')).toBeNull();
    expect(reload).not.toHaveBeenCalled();
    fireEvent.click(screen.getByText('edit'));
    expect(screen.getByTestId('dialog').textContent).toContain('B01');
    fireEvent.click(screen.getByText('save'));
    expect(screen.queryByTestId('dialog')).toBeNull();
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
