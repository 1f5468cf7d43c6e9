import { useState, type ReactNode } from 'react';
import { Button, Drawer, Table, type TableColumnsType } from 'antd';
import {
  formatDateTime,
  AlternateError,
  AlternatePlace,
  AlternateReason,
  AlternateSolution,
  CommandOutcomeKind,
  ControlCmdType,
  callFunId,
  commandReasonText,
  holds,
  type Enumeration,
  type Lang,
} from '@nest/contracts';
import { useI18n, type MessageKey } from '../../../shared/i18n';
import { useCall } from '../../../shared/query';
import { useUser } from '../../../shared/session';

type Row = Record<string, unknown>;
const str = (v: unknown) => (v === null || v === undefined || v === '' ? '--' : String(v));
/** Seconds or ms since the epoch as local time. */
const when = (v: unknown, lang: 'zh' | 'en') => {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) return '--';
  return formatDateTime(n > 1e12 ? n : n * 1000, lang);
};

/** The label of an enum member, or the raw value when the enum does not know it (a newer device's code). */
const labelOr = (e: Enumeration<number | string>, v: unknown, lang: Lang) => (e.has(v) ? e.label(v, lang) : str(v));

interface LogKind {
  /** The call that reads the log, and the function that grants it. */
  name: 'commandLog' | 'alternateList';
  path: '/command/log' | '/alternate/list';
  title: MessageKey;
  /** Test ids of the drawer and of the button that opens it. */
  testId: string;
  openTestId: string;
  columns: (t: ReturnType<typeof useI18n>['t'], lang: Lang) => TableColumnsType<Row>;
}

/** The two logs of a device: the commands sent to it, and its alternate landings. */
const LOGS: readonly LogKind[] = [
  {
    name: 'commandLog',
    path: '/command/log',
    title: 'device.admin.commandLog',
    testId: 'command-log',
    openTestId: 'open-command-log',
    columns: (t, lang) => [
      { title: t('device.admin.who'), render: (_, r) => str(r.nick ?? r.user_name ?? r.u_id) },
      {
        title: t('device.admin.what'),
        render: (_, r) => {
          const c = Number(r.cmd_type);
          return ControlCmdType.has(c) ? ControlCmdType.label(c, lang) : Number(r.control_cmd) ? t(`device.admin.process${Number(r.control_cmd)}` as 'device.admin.process1') : str(r.method ?? r.cmd_type);
        },
      },
      { title: t('device.admin.when'), render: (_, r) => when(r.create_time ?? r.time ?? r.at, lang) },
      { title: t('device.admin.outcome'), render: (_, r) => labelOr(CommandOutcomeKind, r.outcome, lang) },
      { title: t('device.admin.reason'), render: (_, r) => (Number(r.reason) > 0 ? commandReasonText(Number(r.reason), lang) : '--') },
    ],
  },
  {
    name: 'alternateList',
    path: '/alternate/list',
    title: 'device.admin.alternates',
    testId: 'alternate-log',
    openTestId: 'open-alternates',
    columns: (t, lang) => [
      { title: t('device.admin.when'), render: (_, r) => when(r.timestamp ?? r.create_time, lang) },
      { title: t('device.admin.altReason'), render: (_, r) => labelOr(AlternateReason, Number(r.reason), lang) },
      { title: t('device.admin.solution'), render: (_, r) => labelOr(AlternateSolution, Number(r.solution), lang) },
      { title: t('device.admin.place'), render: (_, r) => labelOr(AlternatePlace, Number(r.place_int), lang) },
      { title: t('device.admin.outcome'), render: (_, r) => (Number(r.altn_int) === 0 ? t('device.admin.altOk') : labelOr(AlternateError, Number(r.altn_int), lang)) },
    ],
  },
];

/** A device's log (commands or alternate landings) in a drawer: its latest 200 entries, read when it opens. */
function LogDrawer({ log, sn, onClose }: { log: LogKind; sn: string; onClose: () => void }): ReactNode {
  const { t, lang } = useI18n();
  const answer = useCall(log.name, { sn_id: sn, page: 0, size: 200 });
  const rows: Row[] = answer.isError ? [] : (answer.data?.list ?? []);
  return (
    <Drawer open onClose={onClose} title={t(log.title)} size={640} data-testid={log.testId}>
      <Table<Row>
        size="small"
        loading={answer.isFetching}
        rowKey={(r, i) => str(r.id ?? i)}
        dataSource={rows}
        pagination={{ pageSize: 20, size: 'small' }}
        columns={log.columns(t, lang)}
      />
    </Drawer>
  );
}

/** "Command log" and "Alternate landings" for users holding those functions (or super_administrator). */
export function AdminDrawers({ sn }: { sn: string }): ReactNode {
  const { t } = useI18n();
  const user = useUser();
  const [open, setOpen] = useState<LogKind | null>(null);
  const allowed = LOGS.filter((log) => holds(user?.fun_list, callFunId(log.path)));
  if (allowed.length === 0) return null;
  return (
    <div className="device-admin" data-testid="device-admin">
      {allowed.map((log) => (
        <Button key={log.name} size="small" type="link" onClick={() => setOpen(log)} data-testid={log.openTestId}>
          {t(log.title)}
        </Button>
      ))}
      {open && <LogDrawer log={open} sn={sn} onClose={() => setOpen(null)} />}
    </div>
  );
}
