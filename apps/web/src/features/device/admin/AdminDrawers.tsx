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
} from '@nest/contracts';
import { useI18n } from '../../../shared/i18n';
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

interface LogDrawerProps {
  name: 'commandLog' | 'alternateList';
  sn: string;
  open: boolean;
  onClose: () => void;
  title: string;
  testId: string;
  columns: TableColumnsType<Row>;
}

/** A device's log (commands or alternate landings) in a drawer: its latest 200 entries, read when it opens. */
function LogDrawer({ name, sn, open, onClose, title, testId, columns }: LogDrawerProps): ReactNode {
  const answer = useCall(name, open ? { sn_id: sn, page: 0, size: 200 } : null);
  const rows: Row[] = answer.isError ? [] : (answer.data?.list ?? []);
  return (
    <Drawer open={open} onClose={onClose} title={title} size={640} data-testid={testId}>
      <Table<Row>
        size="small"
        loading={answer.isFetching}
        rowKey={(r, i) => str(r.id ?? i)}
        dataSource={rows}
        pagination={{ pageSize: 20, size: 'small' }}
        columns={columns}
      />
    </Drawer>
  );
}

function CommandLog({ sn, open, onClose }: { sn: string; open: boolean; onClose: () => void }): ReactNode {
  const { t, lang } = useI18n();
  return (
    <LogDrawer
      name="commandLog"
      sn={sn}
      open={open}
      onClose={onClose}
      title={t('device.admin.commandLog')}
      testId="command-log"
      columns={[
        { title: t('device.admin.who'), render: (_, r) => str(r.nick ?? r.user_name ?? r.u_id) },
        {
          title: t('device.admin.what'),
          render: (_, r) => {
            const c = Number(r.cmd_type);
            return ControlCmdType.has(c) ? ControlCmdType.label(c, lang) : Number(r.control_cmd) ? t(`device.admin.process${Number(r.control_cmd)}` as 'device.admin.process1') : str(r.method ?? r.cmd_type);
          },
        },
        { title: t('device.admin.when'), render: (_, r) => when(r.create_time ?? r.time ?? r.at, lang) },
        { title: t('device.admin.outcome'), render: (_, r) => (CommandOutcomeKind.has(r.outcome) ? CommandOutcomeKind.label(r.outcome as string, lang) : str(r.outcome)) },
        { title: t('device.admin.reason'), render: (_, r) => (Number(r.reason) > 0 ? commandReasonText(Number(r.reason), lang) : '--') },
      ]}
    />
  );
}

function AlternateLog({ sn, open, onClose }: { sn: string; open: boolean; onClose: () => void }): ReactNode {
  const { t, lang } = useI18n();
  return (
    <LogDrawer
      name="alternateList"
      sn={sn}
      open={open}
      onClose={onClose}
      title={t('device.admin.alternates')}
      testId="alternate-log"
      columns={[
        { title: t('device.admin.when'), render: (_, r) => when(r.timestamp ?? r.create_time, lang) },
        { title: t('device.admin.altReason'), render: (_, r) => (AlternateReason.has(Number(r.reason)) ? AlternateReason.label(Number(r.reason), lang) : str(r.reason)) },
        { title: t('device.admin.solution'), render: (_, r) => (AlternateSolution.has(Number(r.solution)) ? AlternateSolution.label(Number(r.solution), lang) : str(r.solution)) },
        { title: t('device.admin.place'), render: (_, r) => (AlternatePlace.has(Number(r.place_int)) ? AlternatePlace.label(Number(r.place_int), lang) : str(r.place_int)) },
        {
          title: t('device.admin.outcome'),
          render: (_, r) => (Number(r.altn_int) === 0 ? t('device.admin.altOk') : AlternateError.has(Number(r.altn_int)) ? AlternateError.label(Number(r.altn_int), lang) : str(r.altn_int)),
        },
      ]}
    />
  );
}

/** "Command log" and "Alternate landings" for users holding those functions (or super_administrator). */
export function AdminDrawers({ sn }: { sn: string }): ReactNode {
  const { t } = useI18n();
  const user = useUser();
  const [open, setOpen] = useState<'log' | 'alt' | null>(null);
  const canLog = holds(user?.fun_list, callFunId('/command/log'));
  const canAlt = holds(user?.fun_list, callFunId('/alternate/list'));
  if (!canLog && !canAlt) return null;
  return (
    <div className="device-admin" data-testid="device-admin">
      {canLog && (
        <Button size="small" type="link" onClick={() => setOpen('log')} data-testid="open-command-log">
          {t('device.admin.commandLog')}
        </Button>
      )}
      {canAlt && (
        <Button size="small" type="link" onClick={() => setOpen('alt')} data-testid="open-alternates">
          {t('device.admin.alternates')}
        </Button>
      )}
      {open === 'log' && <CommandLog sn={sn} open onClose={() => setOpen(null)} />}
      {open === 'alt' && <AlternateLog sn={sn} open onClose={() => setOpen(null)} />}
    </div>
  );
}
