import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Form, Input } from 'antd';
import { installMatchMedia } from '../../test/dom';
import type { UploadCallOptions } from '../admin';

const success = vi.fn();
vi.mock('../notify', () => ({ notify: () => ({ success, error: vi.fn(), warning: vi.fn(), info: vi.fn() }) }));

const { SaveDialog, useFieldErrors, useFormSave, useUploadDialog } = await import('./index');


beforeAll(() => installMatchMedia());
afterEach(() => {
  cleanup();
  success.mockReset();
});

interface Values {
  name: string;
}

/** A dialog as the features build it: an antd form in a SaveDialog, saved by useFormSave. */
function NameDialog({ send, onSaved, onClose }: { send: (v: Values) => Promise<unknown>; onSaved: () => void; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const { saving, submit } = useFormSave(form, send, onSaved);
  return (
    <SaveDialog title="Name" width={480} saving={saving} onSave={submit} onClose={onClose} saveTestId="name-save">
      <Form form={form} initialValues={{ name: '' }}>
        <Form.Item name="name" rules={[{ required: true, whitespace: true, message: 'Name is required' }]}>
          <Input data-testid="name" />
        </Form.Item>
      </Form>
    </SaveDialog>
  );
}

describe('a dialog saved with useFormSave', () => {
  it('sends nothing while a rule fails, then sends the values, says saved and calls onSaved', async () => {
    const send = vi.fn(() => Promise.resolve({ id: 'n1' }));
    const onSaved = vi.fn();
    render(<NameDialog send={send} onSaved={onSaved} onClose={vi.fn()} />);
    fireEvent.click(screen.getByTestId('name-save'));
    await waitFor(() => expect(screen.getByText('Name is required')).toBeTruthy());
    expect(send).not.toHaveBeenCalled();

    fireEvent.change(screen.getByTestId('name'), { target: { value: 'Patrol' } });
    fireEvent.click(screen.getByTestId('name-save'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(send).toHaveBeenCalledWith({ name: 'Patrol' });
    expect(success).toHaveBeenCalledWith('已保存');
  });

  it('stays open after a refusal (the request layer said why) and closes on cancel', async () => {
    let refuse: (e: Error) => void = () => undefined;
    const send = vi.fn(() => new Promise((_, reject) => (refuse = reject)));
    const onSaved = vi.fn();
    const onClose = vi.fn();
    render(<NameDialog send={send} onSaved={onSaved} onClose={onClose} />);
    fireEvent.change(screen.getByTestId('name'), { target: { value: 'Taken' } });
    fireEvent.click(screen.getByTestId('name-save'));
    await waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.getByTestId('name-save').className).toContain('ant-btn-loading'));
    await act(async () => refuse(new Error('refused')));
    await waitFor(() => expect(screen.getByTestId('name-save').className).not.toContain('ant-btn-loading'));
    expect(onSaved).not.toHaveBeenCalled();
    expect(success).not.toHaveBeenCalled();
    fireEvent.click(screen.getByText('Cancel'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

function Errors({ error }: { error: string | null }) {
  const { attempt, reset, shown } = useFieldErrors();
  const s = shown(error, 'hint');
  return (
    <div>
      <span data-testid="status">{s.validateStatus ?? 'none'}</span>
      <span data-testid="text">{String(s.help ?? s.extra ?? '')}</span>
      <button onClick={attempt}>try</button>
      <button onClick={reset}>reset</button>
    </div>
  );
}

describe('useFieldErrors', () => {
  it('shows the hint until the user tries to save, then the error, and forgets the try on reset', () => {
    const { rerender } = render(<Errors error="Required" />);
    expect(screen.getByTestId('status').textContent).toBe('none');
    expect(screen.getByTestId('text').textContent).toBe('hint');
    fireEvent.click(screen.getByText('try'));
    expect(screen.getByTestId('status').textContent).toBe('error');
    expect(screen.getByTestId('text').textContent).toBe('Required');
    rerender(<Errors error={null} />);
    expect(screen.getByTestId('status').textContent).toBe('none');
    rerender(<Errors error="Required" />);
    fireEvent.click(screen.getByText('reset'));
    expect(screen.getByTestId('text').textContent).toBe('hint');
  });
});

type Chosen = { file: File; problem: 'tooLarge' | null };

function Upload({ send, onSaved, onClose }: { send: (v: Values, c: Chosen, o: UploadCallOptions) => Promise<unknown>; onSaved: () => void; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const { chosen, setChosen, modal } = useUploadDialog<Values, Chosen>(form, send, { texts: { uploading: (p) => `Sending ${p}%`, processing: 'Checking', uploaded: 'Uploaded' }, onSaved, onClose });
  return (
    <div>
      <Form form={form} initialValues={{ name: 'pkg' }}>
        <Form.Item name="name" rules={[{ required: true }]}>
          <Input data-testid="name" />
        </Form.Item>
      </Form>
      <button onClick={() => setChosen({ file: new File(['x'], 'big.bin'), problem: 'tooLarge' })}>bad</button>
      <button onClick={() => setChosen({ file: new File(['x'], 'ok.bin'), problem: null })}>good</button>
      <span data-testid="state">{`${chosen?.file.name ?? '-'} ${modal.canSend} ${modal.sending} ${modal.percent}`}</span>
      <span data-testid="progress">{modal.progressText}</span>
      <button onClick={modal.onSend}>send</button>
      <button onClick={modal.onCancel}>cancel</button>
    </div>
  );
}

describe('useUploadDialog', () => {
  it('sends only a file that passed its checks, with progress, and says so when done', async () => {
    let finish: () => void = () => undefined;
    let progress: (f: number) => void = () => undefined;
    const send = vi.fn((_v: Values, _c: Chosen, o: UploadCallOptions) => {
      progress = o.onUploadProgress;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    const onSaved = vi.fn();
    render(<Upload send={send} onSaved={onSaved} onClose={vi.fn()} />);
    fireEvent.click(screen.getByText('bad'));
    expect(screen.getByTestId('state').textContent).toBe('big.bin false false 0');
    fireEvent.click(screen.getByText('send'));
    fireEvent.click(screen.getByText('good'));
    expect(screen.getByTestId('state').textContent).toBe('ok.bin true false 0');
    expect(send).not.toHaveBeenCalled();

    fireEvent.click(screen.getByText('send'));
    await waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    expect(send.mock.calls[0]![0]).toEqual({ name: 'pkg' });
    expect(send.mock.calls[0]![1].file.name).toBe('ok.bin');
    act(() => progress(0.42));
    expect(screen.getByTestId('state').textContent).toBe('ok.bin true true 42');
    expect(screen.getByTestId('progress').textContent).toBe('Sending 42%');
    act(() => progress(1));
    expect(screen.getByTestId('progress').textContent).toBe('Checking');
    await act(async () => finish());
    expect(success).toHaveBeenCalledWith('Uploaded');
    expect(onSaved).toHaveBeenCalledTimes(1);
  });

  it('cancel aborts the upload in flight and closes', async () => {
    let signal: AbortSignal | null = null;
    const send = vi.fn((_v: Values, _c: Chosen, o: UploadCallOptions) => {
      signal = o.signal;
      return new Promise<void>(() => undefined);
    });
    const onClose = vi.fn();
    render(<Upload send={send} onSaved={vi.fn()} onClose={onClose} />);
    fireEvent.click(screen.getByText('good'));
    fireEvent.click(screen.getByText('send'));
    await waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    fireEvent.click(screen.getByText('cancel'));
    expect(signal!.aborted).toBe(true);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
