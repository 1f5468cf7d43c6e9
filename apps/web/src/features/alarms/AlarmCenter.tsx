import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, DatePicker, Drawer, Form, Input, Modal, Select, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import {
  formatDateTime,
  type Lang,
  ALARM_NOTE_MAX,
  AlarmKind,
  AlarmLevel,
  AlarmProcessState,
  DEVICE_LIST_DEFAULT_PAGE,
  DEVICE_LIST_DEFAULT_SIZE,
  DEVICE_LIST_DEFAULT_TYPE,
  PushMsgId,
  alarmPush,
  type Alarm,
} from '@nest/contracts';
import { PICKER_FORMATS } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { call } from '../../shared/request';
import { callKey, queryClient, useCall, type Answer } from '../../shared/query';
import { onPush } from '../../shared/push';
import { useUser } from '../../shared/session';
import {
  ALARM_PAGE_SIZE,
  alarmListFields,
  applyAlarmPush,
  canProcessAlarms,
  closeAlarmCenter,
  describeAlarm,
  levelColor,
  setPending,
  useNews,
  type AlarmFilter,
} from './alarms';
import './alarms.css';


const when = (ms: number | null, lang: Lang): string => (ms ? formatDateTime(ms, lang) : '');

/**
 * The alarm center: a drawer over any screen with the company's alarms, filtered by level, state, kind,
 * device and raised date; pending ones can be marked processed with a note. Rows follow push 370.
 */
export function AlarmCenter(): ReactNode {
  const open = useNews().centerOpen;
  return (
    <Drawer
      open={open}
      onClose={closeAlarmCenter}
      size={1180}
      destroyOnHidden
      title={<AlarmTitle />}
      className="alarm-center-drawer"
      data-testid="alarm-center-drawer"
    >
      {open && <AlarmCenterBody />}
    </Drawer>
  );
}

function AlarmTitle(): ReactNode {
  const { t } = useI18n();
  const { pending } = useNews();
  return (
    <span className="alarm-center-title">
      {t('alarms.center.title')}
      {pending !== null && (
        <span className="alarm-center-pending" data-testid="alarm-center-pending" data-value={pending}>
          {t('alarms.center.pending', { n: pending })}
        </span>
      )}
    </span>
  );
}

/** No alarms read yet (one array, so the table's rows keep their identity). */
const NO_ALARMS: Alarm[] = [];

function AlarmCenterBody(): ReactNode {
  const { t, lang } = useI18n();
  const user = useUser();
  const mayProcess = canProcessAlarms(user?.fun_list);
  const [filter, setFilter] = useState<AlarmFilter>({});
  const [page, setPage] = useState(1);
  const fields = alarmListFields(filter, page);
  const answer = useCall('alarmList', fields, { keepPrevious: true });
  const rows = answer.data?.list ?? NO_ALARMS;
  const total = answer.data?.total ?? 0;
  const loading = answer.isFetching;
  // The pending count in the header follows each page read.
  const pending = answer.data?.pending;
  useEffect(() => {
    if (pending !== undefined) setPending(pending);
  }, [pending]);
  const filterRef = useRef(filter);
  filterRef.current = filter;
  const pageRef = useRef(page);
  pageRef.current = page;
  /** Changes the page on screen in the cache (a pushed alarm, processed alarms) without reading it again. */
  const editShown = useCallback((edit: (rows: readonly Alarm[]) => { rows: Alarm[]; added: number }) => {
    queryClient.setQueryData<Answer<'alarmList'>>(callKey('alarmList', alarmListFields(filterRef.current, pageRef.current)), (old) => {
      if (!old) return old;
      const next = edit(old.list);
      return { ...old, list: next.rows, total: Math.max(0, old.total + next.added) };
    });
  }, []);
  const [selected, setSelected] = useState<string[]>([]);
  const [processing, setProcessing] = useState<string[] | null>(null);
  const deviceList = useCall('deviceList', { type: DEVICE_LIST_DEFAULT_TYPE, page: DEVICE_LIST_DEFAULT_PAGE, size: DEVICE_LIST_DEFAULT_SIZE }, { quiet: true }).data;
  const devices = useMemo(() => (deviceList?.list ?? []).map((d) => ({ value: d.sn_id, label: d.name || d.airport_name || d.uav_name || d.sn_id })), [deviceList]);

  useEffect(
    () =>
      onPush(PushMsgId.ALARM, (data) => {
        const parsed = alarmPush.safeParse(data);
        if (!parsed.success) return;
        editShown((prev) => applyAlarmPush(prev, parsed.data, filterRef.current, pageRef.current));
      }),
    [editShown],
  );

  /** A select for one of the filter's fields (level, state, kind); clearing it drops the field. */
  const filterSelect = <K extends 'level' | 'state' | 'kind'>(key: K, options: { value: NonNullable<AlarmFilter[K]>; label: string }[], width: number, matchWidth = true) => (
    <Select
      allowClear
      placeholder={t(`alarms.filter.${key}`)}
      value={filter[key]}
      onChange={(v?: AlarmFilter[K]) => change({ [key]: v })}
      options={options}
      data-testid={`alarm-filter-${key}`}
      style={{ width }}
      popupMatchSelectWidth={matchWidth ? undefined : false}
    />
  );

  const change = (patch: Partial<AlarmFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    setPage(1);
    setSelected([]);
  };

  const columns: ColumnsType<Alarm> = useMemo(
    () => [
      {
        title: t('alarms.col.level'),
        dataIndex: 'level',
        width: 76,
        render: (level: number) => (
          <Tag color={levelColor(level)} className="alarm-level-tag">
            {AlarmLevel.label(level, lang)}
          </Tag>
        ),
      },
      {
        title: t('alarms.col.kind'),
        key: 'kind',
        render: (_, a) => <span className="alarm-kind-text">{describeAlarm(a, lang)}</span>,
      },
      { title: t('alarms.col.device'), dataIndex: 'device_name', width: 150, ellipsis: true, render: (name: string, a) => name || a.sn_id },
      { title: t('alarms.col.raisedAt'), dataIndex: 'raised_at', width: 168, render: (ms: number) => <span className="tnum">{when(ms, lang)}</span> },
      {
        title: t('alarms.col.condition'),
        dataIndex: 'cleared_at',
        width: 150,
        render: (ms: number | null) =>
          ms ? (
            <Tooltip title={when(ms, lang)}>
              <span className="alarm-cleared">{t('alarms.condition.cleared')}</span>
            </Tooltip>
          ) : (
            <span className="alarm-active">{t('alarms.condition.active')}</span>
          ),
      },
      {
        title: t('alarms.col.state'),
        dataIndex: 'state',
        width: 92,
        render: (s: number) => <Tag color={s === 10 ? 'orange' : 'green'}>{AlarmProcessState.label(s, lang)}</Tag>,
      },
      {
        title: t('alarms.col.processed'),
        key: 'processed',
        width: 220,
        render: (_, a) =>
          a.state === 20 ? (
            <span className="alarm-processed">
              <span>
                {a.processed_by} <small className="tnum">{when(a.processed_at, lang)}</small>
              </span>
              {a.note && <span className="alarm-note" title={a.note}>{a.note}</span>}
            </span>
          ) : mayProcess ? (
            <Button size="small" type="link" onClick={() => setProcessing([a.id])} data-testid="alarm-process-one">
              {t('alarms.process.one')}
            </Button>
          ) : null,
      },
    ],
    [t, lang, mayProcess],
  );

  return (
    <div className="alarm-center" data-testid="alarm-center">
      <div className="alarm-filters">
        {filterSelect('level', AlarmLevel.options(lang), 110)}
        {filterSelect('state', AlarmProcessState.options(lang), 120)}
        {filterSelect('kind', AlarmKind.options(lang), 170, false)}
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder={t('alarms.filter.device')}
          value={filter.snId}
          onChange={(snId?: string) => change({ snId })}
          options={devices}
          data-testid="alarm-filter-device"
          style={{ width: 160 }}
          popupMatchSelectWidth={false}
        />
        <DatePicker.RangePicker
          allowEmpty={[false, false]}
          format={PICKER_FORMATS[lang].date}
          onChange={(v) => change({ range: v && v[0] && v[1] ? [v[0].valueOf(), v[1].valueOf()] : null })}
          data-testid="alarm-filter-range"
        />
        <span className="alarm-filters-gap" />
        {mayProcess && (
          <Button type="primary" disabled={selected.length === 0} onClick={() => setProcessing(selected)} data-testid="alarm-process">
            {t('alarms.process.selected', { n: selected.length })}
          </Button>
        )}
      </div>
      <Table<Alarm>
        rowKey="id"
        size="small"
        loading={loading}
        columns={columns}
        dataSource={rows}
        data-testid="alarm-table"
        onRow={(a) => ({ 'data-testid': 'alarm-row', 'data-state': a.state, 'data-level': a.level })}
        rowSelection={
          mayProcess
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys.map(String)),
                getCheckboxProps: (a) => ({ disabled: a.state !== 10 }),
              }
            : undefined
        }
        pagination={{
          current: page,
          pageSize: ALARM_PAGE_SIZE,
          total,
          showSizeChanger: false,
          showTotal: (n) => t('alarms.total', { n }),
          onChange: (p) => {
            setPage(p);
            setSelected([]);
          },
        }}
        scroll={{ y: 'calc(100vh - 260px)' }}
      />
      <ProcessModal
        ids={processing}
        onClose={() => setProcessing(null)}
        onDone={(done, pending) => {
          setPending(pending);
          const byId = new Map(done.map((a) => [a.id, a]));
          editShown((prev) => ({ rows: prev.map((a) => byId.get(a.id) ?? a).filter((a) => !filter.state || a.state === filter.state), added: 0 }));
          setSelected([]);
          setProcessing(null);
        }}
      />
    </div>
  );
}

function ProcessModal({
  ids,
  onClose,
  onDone,
}: {
  ids: string[] | null;
  onClose: () => void;
  onDone: (alarms: Alarm[], pending: number) => void;
}): ReactNode {
  const { t } = useI18n();
  const [form] = Form.useForm<{ note: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!ids) return;
    const { note } = await form.validateFields();
    setBusy(true);
    try {
      const data = await call('alarmProcess', { ids, note: note?.trim() ?? '' });
      notify().success(t('alarms.process.done', { n: data.list.length }));
      onDone(data.list, data.pending);
      form.resetFields();
    } catch {
      /* shown by the request layer; nothing changed */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={ids !== null}
      title={t('alarms.process.title', { n: ids?.length ?? 0 })}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('alarms.process.submit')}
      confirmLoading={busy}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'alarm-process-submit' }}
      data-testid="alarm-process-dialog"
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="note"
          label={t('alarms.process.note')}
          rules={[
            { required: true, whitespace: true, message: t('alarms.process.noteRequired') },
            { max: ALARM_NOTE_MAX, message: t('alarms.process.noteTooLong', { n: ALARM_NOTE_MAX }) },
          ]}
        >
          <Input.TextArea rows={4} maxLength={ALARM_NOTE_MAX} showCount data-testid="alarm-process-note" placeholder={t('alarms.process.notePlaceholder')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
