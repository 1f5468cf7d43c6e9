import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Checkbox, Empty, Form, Input, InputNumber, Popconfirm, Select, Table, type FormInstance, type TableColumnsType } from 'antd';
import {
  AZIMUTH_INVALID,
  CALIBRATION_ITEMS,
  CalibrationItem,
  MaintenanceKind,
  NEST_FIRMWARE_TYPE,
  NtripState,
  RtkStatus,
  type CalibrationItemValue,
  type CallFields,
  type DeviceListItem,
  type DeviceOp,
  type Firmware,
} from '@nest/contracts';
import { formatSeconds } from '../../../shared/format';
import { useI18n } from '../../../shared/i18n';
import { call } from '../../../shared/request';
import { OpDetail, OpStateTag, OpStatus } from './OpStatus';
import { latestOf, logHref, useMaintenance, type MaintenanceData } from './useMaintenance';

/** What every panel gets: the device, its operations, whether the user may run the panel's call, and why not now. */
export interface PanelProps {
  device: DeviceListItem;
  data: MaintenanceData;
  allowed: boolean;
  /** Why the device cannot be operated now (disabled, held, offline), or null. */
  blocked: string | null;
  /** Runs a maintenance call and shows its operation; resolves false when it was refused. */
  run(name: MaintenanceCall, fields: CallFields<MaintenanceCall>): Promise<boolean>;
}

export type MaintenanceCall = 'deviceUpgrade' | 'deviceCalibrate' | 'deviceBeacon' | 'deviceAzimuth' | 'deviceRtk' | 'deviceLog' | 'deviceDebug';

function NoPermission(): ReactNode {
  const { t } = useI18n();
  return <Alert type="info" showIcon title={t('maintenance.noPermission')} />;
}

const isRunning = (op: DeviceOp | null): boolean => op?.state === 'running';

interface SettingsFormProps<V> {
  form: FormInstance<V>;
  allowed: boolean;
  /** Sends the settings (the panel's maintenance call). */
  onSubmit: (values: V) => Promise<unknown>;
  /** The form's items and buttons; `busy` while the settings are being sent. */
  children: (busy: boolean) => ReactNode;
}

/** The settings form of a panel (beacon, azimuth, RTK), or why it is not offered; busy while it is sent. */
function SettingsForm<V>({ form, allowed, onSubmit, children }: SettingsFormProps<V>): ReactNode {
  const [busy, setBusy] = useState(false);
  if (!allowed) return <NoPermission />;
  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={(v) => void (async () => {
        setBusy(true);
        await onSubmit(v);
        setBusy(false);
      })()}
    >
      {children(busy)}
    </Form>
  );
}

interface OpsTableProps {
  testId: string;
  ops: Pick<MaintenanceData, 'list' | 'total' | 'page' | 'loading' | 'setPage'>;
  /** What the empty table says. */
  empty: string;
  columns: TableColumnsType<DeviceOp>;
  /** The pager: hidden on a single page (the log list), or with the total (the history). */
  pager: 'hideSingle' | 'withTotal';
}

type OpColumn = TableColumnsType<DeviceOp>[number];

/** The columns every list of operations has: when it was asked for, its state, and who asked. */
const opColumns = (t: ReturnType<typeof useI18n>['t']): Record<'created' | 'state' | 'user', OpColumn> => ({
  created: { title: t('maintenance.op.created'), dataIndex: 'create_time', className: 'maint-nowrap', render: (v: number) => formatSeconds(v) },
  state: { title: t('maintenance.op.state'), render: (_v, op) => <OpStateTag op={op} /> },
  user: { title: t('maintenance.op.user'), dataIndex: 'user_name' },
});

/** A paged table of a device's operations (10 a page). */
function OpsTable({ testId, ops, empty, columns, pager }: OpsTableProps): ReactNode {
  const { t } = useI18n();
  return (
    <Table<DeviceOp>
      size="small"
      rowKey="id"
      data-testid={testId}
      loading={ops.loading}
      dataSource={ops.list}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> }}
      pagination={{
        current: ops.page + 1,
        pageSize: 10,
        total: ops.total,
        onChange: (p) => ops.setPage(p - 1),
        ...(pager === 'hideSingle' ? { hideOnSinglePage: true } : { showTotal: (n: number) => t('admin.total', { total: n }) }),
      }}
      columns={columns}
    />
  );
}

// ------------------------------------------------------------------------------------------ firmware

export function FirmwarePanel({ device, data, allowed, blocked, run }: PanelProps): ReactNode {
  const { t } = useI18n();
  const [roms, setRoms] = useState<Firmware[] | null>(null);
  const [listFailed, setListFailed] = useState(false);
  const [romId, setRomId] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const nest = device.type !== 'alone';
  useEffect(() => {
    if (!nest || !allowed) return;
    let gone = false;
    call('romList', { type: NEST_FIRMWARE_TYPE, state: 10, page: 0, size: 200 }, { quiet: true })
      .then((r) => !gone && setRoms(r.list))
      .catch(() => !gone && setListFailed(true));
    return () => {
      gone = true;
    };
  }, [nest, allowed]);
  const latest = latestOf(data.list, 'upgrade');
  if (!nest) return <Alert type="info" showIcon title={t('maintenance.firmware.nestOnly')} />;
  const chosen = roms?.find((r) => r.id === romId);
  const offline = data.live !== null && !data.live.online;
  return (
    <div className="maint-panel">
      <div className="maint-live">
        <span className="maint-muted">{t('maintenance.firmwareNow')}</span>
        <strong data-testid="firmware-now">{data.live?.firmware ?? t('maintenance.unknown')}</strong>
      </div>
      {!allowed ? (
        <NoPermission />
      ) : (
        <>
          {listFailed && <Alert type="warning" showIcon title={t('maintenance.firmware.listFailed')} />}
          {roms && roms.length === 0 && <Alert type="info" showIcon title={t('maintenance.firmware.none')} />}
          {offline && <Alert type="warning" showIcon title={t('maintenance.firmware.offline')} />}
          <Form layout="vertical">
            <Form.Item label={t('maintenance.firmware.choose')} required>
              <Select
                data-testid="firmware-select"
                value={romId}
                onChange={setRomId}
                placeholder={t('maintenance.firmware.placeholder')}
                loading={roms === null && !listFailed}
                options={(roms ?? []).map((r) => ({ value: r.id, label: t('maintenance.firmware.version', { name: r.version_name, code: r.version_code }) }))}
              />
            </Form.Item>
            <Popconfirm
              title={t('maintenance.firmware.confirm', { name: device.name, version: chosen?.version_name ?? '' })}
              disabled={!chosen || !!blocked || isRunning(latest)}
              // Popconfirm awaits the promise it is handed: its OK button spins until the upgrade is sent.
              // eslint-disable-next-line @typescript-eslint/no-misused-promises
              onConfirm={async () => {
                setBusy(true);
                await run('deviceUpgrade', { sn_id: device.sn_id, rom_id: chosen!.id });
                setBusy(false);
              }}
            >
              <Button type="primary" data-testid="firmware-upgrade" loading={busy} disabled={!chosen || !!blocked || isRunning(latest)}>
                {t('maintenance.firmware.upgrade')}
              </Button>
            </Popconfirm>
          </Form>
        </>
      )}
      <OpStatus op={latest} />
    </div>
  );
}

// ------------------------------------------------------------------------------------------ calibration

export function CalibratePanel({ device, data, allowed, blocked, run }: PanelProps): ReactNode {
  const { t, lang } = useI18n();
  const [items, setItems] = useState<CalibrationItemValue[]>([...CALIBRATION_ITEMS]);
  const [busy, setBusy] = useState(false);
  const latest = latestOf(data.list, 'calibrate');
  return (
    <div className="maint-panel">
      {!allowed ? (
        <NoPermission />
      ) : (
        <Form layout="vertical">
          <Form.Item label={t('maintenance.calibrate.items')} required validateStatus={items.length ? undefined : 'error'} help={items.length ? undefined : t('maintenance.calibrate.needItem')}>
            <Checkbox.Group
              data-testid="calibrate-items"
              value={items}
              onChange={(v) => setItems(CALIBRATION_ITEMS.filter((i) => (v as string[]).includes(i)))}
              options={CalibrationItem.options(lang)}
            />
          </Form.Item>
          <Button
            type="primary"
            data-testid="calibrate-start"
            loading={busy}
            disabled={!items.length || !!blocked || isRunning(latest)}
            onClick={() => void (async () => {
              setBusy(true);
              await run('deviceCalibrate', { sn_id: device.sn_id, items: JSON.stringify(items) });
              setBusy(false);
            })()}
          >
            {t('maintenance.calibrate.start')}
          </Button>
        </Form>
      )}
      <OpStatus op={latest} />
    </div>
  );
}

// ------------------------------------------------------------------------------------------ beacon

interface BeaconForm {
  lat: number;
  lng: number;
  height: number;
}

export function BeaconPanel({ device, data, allowed, blocked, run }: PanelProps): ReactNode {
  const { t } = useI18n();
  const [form] = Form.useForm<BeaconForm>();
  const current = data.live?.beacon ?? null;
  // Refill when the stored beacon changes (the form instance is stable).
  useEffect(() => {
    if (current) form.setFieldsValue(current);
    // Keyed on the stored values, not on the object that each poll answers anew.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current?.lat, current?.lng, current?.height]);
  const latest = latestOf(data.list, 'beacon');
  const item = (name: keyof BeaconForm, min: number, max: number, step: number) => (
    <Form.Item name={name} label={t(`maintenance.beacon.${name}`)} rules={[{ required: true, message: t('admin.required', { field: t(`maintenance.beacon.${name}`) }) }]}>
      <InputNumber data-testid={`beacon-${name}`} min={min} max={max} step={step} style={{ width: 220 }} />
    </Form.Item>
  );
  return (
    <div className="maint-panel">
      <div className="maint-live">
        <span className="maint-muted">{t('maintenance.beacon.current')}</span>
        <span data-testid="beacon-now">{current ? `${current.lat}, ${current.lng}, ${current.height} m` : t('maintenance.beacon.none')}</span>
      </div>
      <SettingsForm
        form={form}
        allowed={allowed}
        onSubmit={(v) => run('deviceBeacon', { sn_id: device.sn_id, beacon: JSON.stringify({ lat: v.lat, lng: v.lng, height: v.height }) })}
      >
        {(busy) => (
          <>
            {item('lat', -90, 90, 0.000001)}
            {item('lng', -180, 180, 0.000001)}
            {item('height', -1000, 10000, 0.1)}
            <Button type="primary" htmlType="submit" data-testid="beacon-save" loading={busy} disabled={!!blocked}>
              {t('maintenance.beacon.save')}
            </Button>
          </>
        )}
      </SettingsForm>
      <OpStatus op={latest} />
    </div>
  );
}

// ------------------------------------------------------------------------------------------ azimuth

/** The SPEC rule: -1 (not set) or 0 to 360. */
export const azimuthOk = (v: number | null | undefined): boolean =>
  typeof v === 'number' && Number.isFinite(v) && (v === AZIMUTH_INVALID || (v >= 0 && v <= 360));

export function AzimuthPanel({ device, data, allowed, blocked, run }: PanelProps): ReactNode {
  const { t } = useI18n();
  const [form] = Form.useForm<{ azimuth: number }>();
  const current = data.live?.azimuth;
  // Refill when the stored azimuth changes (the form instance is stable).
  useEffect(() => {
    if (current !== undefined) form.setFieldsValue({ azimuth: current });
  }, [current, form]);
  const latest = latestOf(data.list, 'azimuth');
  return (
    <div className="maint-panel">
      <div className="maint-live">
        <span className="maint-muted">{t('maintenance.azimuth.current')}</span>
        <span data-testid="azimuth-now">{current === undefined || current === AZIMUTH_INVALID ? t('maintenance.azimuth.none') : `${current}°`}</span>
      </div>
      <SettingsForm form={form} allowed={allowed} onSubmit={(v) => run('deviceAzimuth', { sn_id: device.sn_id, azimuth: v.azimuth })}>
        {(busy) => (
          <>
            <Form.Item
              name="azimuth"
              label={t('maintenance.azimuth.value')}
              extra={t('maintenance.azimuth.range')}
              rules={[
                { required: true, message: t('admin.required', { field: t('maintenance.azimuth.value') }) },
                { validator: async (_r, v: number | null) => (azimuthOk(v) ? undefined : Promise.reject(new Error(t('maintenance.azimuth.range')))) },
              ]}
            >
              <InputNumber data-testid="azimuth-value" min={-1} max={360} step={0.1} style={{ width: 220 }} />
            </Form.Item>
            <div style={{ display: 'flex', gap: 8 }}>
              <Button type="primary" htmlType="submit" data-testid="azimuth-save" loading={busy} disabled={!!blocked}>
                {t('maintenance.azimuth.save')}
              </Button>
              <Button onClick={() => form.setFieldsValue({ azimuth: AZIMUTH_INVALID })} data-testid="azimuth-unset">
                {t('maintenance.azimuth.unset')}
              </Button>
            </div>
          </>
        )}
      </SettingsForm>
      <OpStatus op={latest} />
    </div>
  );
}

// ------------------------------------------------------------------------------------------ RTK

interface RtkForm {
  url: string;
  port: number;
  mount_point?: string;
  user?: string;
  password?: string;
}

export function RtkPanel({ device, data, allowed, blocked, run }: PanelProps): ReactNode {
  const { t, lang } = useI18n();
  const [form] = Form.useForm<RtkForm>();
  const latest = latestOf(data.list, 'rtk');
  // The last settings used (never the password) fill the form.
  const last = latest?.params as Partial<RtkForm> | undefined;
  // Refill from each new RTK operation only, so typing is not overwritten by polls.
  useEffect(() => {
    if (last?.url) form.setFieldsValue({ url: last.url, port: last.port, mount_point: last.mount_point, user: last.user });
    // Keyed on the operation only: a poll answering the same operation must not overwrite what is being typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [latest?.id]);
  const live = data.live;
  return (
    <div className="maint-panel">
      <div className="maint-live" data-testid="rtk-live">
        <span className="maint-muted">{t('maintenance.rtk.status')}</span>
        <span data-testid="rtk-status">{live?.rtk_status == null ? '--' : RtkStatus.label(live.rtk_status, lang)}</span>
        <span className="maint-muted">{t('maintenance.rtk.ntrip')}</span>
        <span data-testid="rtk-ntrip">{live?.ntrip_state == null ? '--' : NtripState.label(live.ntrip_state, lang)}</span>
      </div>
      <span className="maint-muted">{t('maintenance.rtk.liveHint')}</span>
      <SettingsForm
        form={form}
        allowed={allowed}
        onSubmit={async (v) => {
          await run('deviceRtk', {
            sn_id: device.sn_id,
            url: v.url.trim(),
            port: v.port,
            mount_point: v.mount_point?.trim() ?? '',
            user: v.user?.trim() ?? '',
            password: v.password ?? '',
          });
          form.setFieldsValue({ password: '' });
        }}
      >
        {(busy) => (
          <>
            <Form.Item name="url" label={t('maintenance.rtk.url')} rules={[{ required: true, whitespace: true, message: t('maintenance.rtk.urlRequired') }, { max: 255 }]}>
              <Input data-testid="rtk-url" placeholder={t('maintenance.rtk.urlPlaceholder')} maxLength={255} />
            </Form.Item>
            <Form.Item
              name="port"
              label={t('maintenance.rtk.port')}
              rules={[{ required: true, type: 'integer', min: 1, max: 65535, message: t('maintenance.rtk.portRequired') }]}
            >
              <InputNumber data-testid="rtk-port" min={1} max={65535} precision={0} style={{ width: 160 }} />
            </Form.Item>
            <Form.Item name="mount_point" label={t('maintenance.rtk.mountPoint')} rules={[{ max: 64 }]}>
              <Input data-testid="rtk-mount" maxLength={64} />
            </Form.Item>
            <Form.Item name="user" label={t('maintenance.rtk.user')} rules={[{ max: 64 }]}>
              <Input data-testid="rtk-user" maxLength={64} autoComplete="off" />
            </Form.Item>
            <Form.Item name="password" label={t('maintenance.rtk.password')} extra={t('maintenance.rtk.passwordHint')} rules={[{ max: 64 }]}>
              <Input.Password data-testid="rtk-password" maxLength={64} autoComplete="new-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" data-testid="rtk-save" loading={busy} disabled={!!blocked || isRunning(latest)}>
              {t('maintenance.rtk.save')}
            </Button>
          </>
        )}
      </SettingsForm>
      <OpStatus op={latest} />
    </div>
  );
}

// ------------------------------------------------------------------------------------------ log

export function LogPanel({ device, allowed, blocked, run }: Omit<PanelProps, 'data'>): ReactNode {
  const { t } = useI18n();
  const logs = useMaintenance(device.type === 'alone' ? null : device.sn_id, 'log');
  const [busy, setBusy] = useState(false);
  if (device.type === 'alone') return <Alert type="info" showIcon title={t('maintenance.log.nestOnly')} />;
  const latest = latestOf(logs.list, 'log');
  const common = opColumns(t);
  return (
    <div className="maint-panel">
      <span className="maint-muted">{t('maintenance.log.hint')}</span>
      {!allowed ? (
        <NoPermission />
      ) : (
        <Button
          type="primary"
          data-testid="log-request"
          loading={busy}
          disabled={!!blocked || isRunning(latest)}
          style={{ alignSelf: 'flex-start' }}
          onClick={() => void (async () => {
            setBusy(true);
            const ok = await run('deviceLog', { sn_id: device.sn_id });
            if (ok) logs.reload();
            setBusy(false);
          })()}
        >
          {t('maintenance.log.request')}
        </Button>
      )}
      <OpStatus op={latest} />
      <h4 style={{ margin: 0 }}>{t('maintenance.log.list')}</h4>
      <OpsTable
        testId="log-table"
        ops={logs}
        empty={t('maintenance.log.empty')}
        pager="hideSingle"
        columns={[
          common.created,
          common.state,
          {
            title: t('maintenance.op.file'),
            render: (_v, op) => {
              const href = logHref(op);
              return href ? (
                <a href={href} download={op.file!.name} data-testid="log-download">
                  {op.file!.name} ({Math.max(1, Math.round(op.file!.size / 1024))} KB)
                </a>
              ) : (
                <OpDetail op={op} />
              );
            },
          },
          common.user,
        ]}
      />
    </div>
  );
}

// ------------------------------------------------------------------------------------------ history

export function HistoryPanel({ data }: { data: MaintenanceData }): ReactNode {
  const { t, lang } = useI18n();
  if (data.failed) {
    return <Alert type="error" showIcon title={t('maintenance.loadFailed')} action={<Button onClick={data.reload}>{t('maintenance.retry')}</Button>} />;
  }
  const common = opColumns(t);
  return (
    <OpsTable
      testId="history-table"
      ops={data}
      empty={t('maintenance.op.none')}
      pager="withTotal"
      columns={[
        { title: t('maintenance.op.kind'), dataIndex: 'kind', className: 'maint-nowrap', render: (k: DeviceOp['kind']) => MaintenanceKind.label(k, lang) },
        common.state,
        { title: t('maintenance.op.progress'), dataIndex: 'progress', render: (p: number) => `${p}%` },
        { title: t('maintenance.op.detail'), render: (_v, op) => <OpDetail op={op} /> },
        common.user,
        common.created,
        { title: t('maintenance.op.finished'), dataIndex: 'finish_time', className: 'maint-nowrap', render: (v: number | null) => formatSeconds(v) },
      ]}
    />
  );
}
