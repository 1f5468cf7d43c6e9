/**
 * The audit log of security events: what kinds exist, how each ended. The server writes rows
 * (apps/server/src/audit), /audit/list reads them, the web labels each kind in both languages.
 */
export const AUDIT_KINDS = [
  'login',
  'login_failed',
  'login_locked',
  'logout',
  'password_change',
  'user_add',
  'user_edit',
  'user_delete',
  'user_recover',
  'fun_add',
  'fun_edit',
  'fun_delete',
  'group_members',
  'device_command',
  'device_add',
  'device_delete',
  'device_enable',
  'device_disable',
  'device_credentials',
  'fence_delete',
  'nofly_add',
  'nofly_edit',
  'nofly_delete',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];
export const isAuditKind = (v: string): v is AuditKind => (AUDIT_KINDS as readonly string[]).includes(v);

/** ok: done; refused: a check said no (wrong password, throttled, account expired or disabled...). */
export const AUDIT_OUTCOMES = ['ok', 'refused'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** One row as /audit/list answers it; `detail` is a JSON object (never a password or a token). */
export interface AuditEntry {
  id: string;
  at: number;
  company_id: string;
  u_id: string | null;
  user_name: string;
  account: string;
  kind: AuditKind;
  target: string;
  /**
   * The target as people read it: a user's name and account ('Alice (alice@nest.local)'), a function's or
   * a group's name, a device's name and sn; '' when unknown. Optional: older servers did not send it.
   */
  target_name?: string;
  detail: Record<string, unknown>;
  ip: string;
  outcome: AuditOutcome;
}

/** How long audit rows are meant to be kept (documented policy; deletion is an operator's job today). */
export const AUDIT_RETENTION_DAYS = 365;
