import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { AuditEntry } from '@nest/contracts';
import { installMatchMedia, installResizeObserver } from '../../test/dom';
import { applyLang } from '../../shared/i18n';

installMatchMedia();
installResizeObserver();

const call = vi.fn();
vi.mock('../../shared/request', () => ({ call: (...args: unknown[]) => call(...args) }));

const { default: AuditLogPage } = await import('./AuditLogPage');

const ROWS: AuditEntry[] = [
  { id: 'a2', at: 1_700_000_100, company_id: 'wk', u_id: null, user_name: '', account: 'who@nest.local', kind: 'login_failed', target: '', detail: { reason: 'wrong_password' }, ip: '10.0.0.9', outcome: 'refused' },
  { id: 'a1', at: 1_700_000_000, company_id: 'wk', u_id: 'u1', user_name: 'Alice', account: 'alice@nest.local', kind: 'user_edit', target: 'u2', target_name: 'Bob (bob@nest.local)', detail: { fun_list: { before: [], after: ['menu_home'] } }, ip: '10.0.0.1', outcome: 'ok' },
];

describe('security audit screen', () => {
  beforeEach(() => {
    call.mockReset();
    call.mockImplementation(() => Promise.resolve({ list: ROWS, total: 2 }));
  });
  afterEach(() => {
    cleanup();
    act(() => applyLang('zh'));
  });

  it('lists events with kind labels, outcome and detail in Chinese, then in English', async () => {
    act(() => applyLang('zh'));
    render(<AuditLogPage />);
    await waitFor(() => expect(screen.getByText('登录失败')).toBeTruthy());
    expect(screen.getByText('修改用户权限')).toBeTruthy();
    expect(screen.getByText('拒绝')).toBeTruthy();
    expect(screen.getByText('未登录')).toBeTruthy();
    expect(screen.getByText('Alice')).toBeTruthy();
    expect(screen.getByText('密码错误')).toBeTruthy();
    expect(screen.getByText('功能: +menu_home')).toBeTruthy();
    // The object column names the user, never their id.
    expect(screen.getByTestId('audit-target').textContent).toBe('Bob (bob@nest.local)');
    expect(screen.getByTestId('audit-target').title).toBe('u2');
    act(() => applyLang('en'));
    await waitFor(() => expect(screen.getByText('Sign-in failed')).toBeTruthy());
    expect(screen.getByText('User access changed')).toBeTruthy();
    expect(screen.getByText('Refused')).toBeTruthy();
    expect(screen.getByText('Wrong password')).toBeTruthy();
    expect(call).toHaveBeenCalledWith('auditList', { page: 0, size: 20 });
  });

  it('sends the account search as a filter', async () => {
    render(<AuditLogPage />);
    await waitFor(() => expect(call).toHaveBeenCalled());
    const input = screen.getByTestId('audit-log-search').querySelector('input') ?? screen.getByPlaceholderText('账号或用户名');
    fireEvent.change(input, { target: { value: ' alice ' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(call).toHaveBeenLastCalledWith('auditList', { account: 'alice', page: 0, size: 20 }));
  });
});
