import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { DatePicker, Form, InputNumber, Radio, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { TIMED_TASK_MIN_INTERVAL_MIN, type DeviceListItem, type TimedTaskRow } from '@nest/contracts';
import { PICKER_FORMATS } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { useSave } from '../../shared/admin';
import { SaveDialog, useFieldErrors } from '../../shared/dialogs';
import { call } from '../../shared/request';
import { useDeviceRoutes } from '../device';
import { displayName } from '../../shared/fleet';
import { inFuture, intervalIssue, repeatOf, taskAddFields, taskEditFields, type IntervalUnit, type Repeat } from './schedule';

/** The add / edit dialog of a timed task: device, then one of its fences' routes, the time, once or repeating. */
export function TaskDialog({
  open,
  task,
  devices,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** null: a new task. */
  task: TimedTaskRow | null;
  devices: readonly DeviceListItem[];
  onClose: () => void;
  onSaved: () => void;
}): ReactNode {
  const { t, lang } = useI18n();
  const [sn, setSn] = useState<string | undefined>(undefined);
  const [missionId, setMissionId] = useState<string | undefined>(undefined);
  const [time, setTime] = useState<Dayjs | null>(null);
  const [repeat, setRepeat] = useState<Repeat>(repeatOf(0));
  const { attempt, reset, shown } = useFieldErrors();
  // A clash with another task of the device is shown (and named) by the request layer.
  const { saving, save: send } = useSave();

  useEffect(() => {
    if (!open) return;
    setSn(task?.sn_id);
    setMissionId(task?.mission_id);
    setTime(task ? dayjs.unix(task.next_run ?? task.task_tms) : null);
    setRepeat(repeatOf(task?.interval ?? 0));
    reset();
  }, [open, task, reset]);

  const { routes, loading: routesLoading } = useDeviceRoutes(sn ?? '', open && !!sn);
  const routeOptions = useMemo(() => {
    const opts = routes.map((r) => ({ value: r.id, label: r.name }));
    // The task's own route keeps its label while the routes load (or if it was renamed meanwhile).
    if (task && task.sn_id === sn && !opts.some((o) => o.value === task.mission_id)) opts.push({ value: task.mission_id, label: task.m_title });
    return opts;
  }, [routes, task, sn]);

  const tms = time ? time.second(0).unix() : null;
  // An edit that keeps the stored time is not re-checked (a finished once task keeps its past time).
  const stored = task ? (task.next_run ?? task.task_tms) : null;
  const timeKept = stored !== null && tms === stored - (stored % 60);
  const timeError = tms === null ? t('taskManage.form.choose', { field: t('taskManage.form.time') }) : !timeKept && !inFuture(tms) ? t('taskManage.form.pastTime') : null;
  const issue = intervalIssue(repeat);
  const repeatError =
    issue === 'missing'
      ? t('taskManage.form.intervalMissing')
      : issue === 'tooShort'
        ? t('taskManage.form.intervalTooShort', { min: TIMED_TASK_MIN_INTERVAL_MIN })
        : issue === 'tooLong'
          ? t('taskManage.form.intervalTooLong')
          : null;
  const snError = sn ? null : t('taskManage.form.choose', { field: t('taskManage.form.device') });
  const routeError = missionId ? null : t('taskManage.form.choose', { field: t('taskManage.form.route') });
  const valid = !timeError && !repeatError && !snError && !routeError;

  const save = async () => {
    attempt();
    if (!valid || !sn || !missionId || tms === null) return;
    const form = { sn_id: sn, mission_id: missionId, task_tms: timeKept && task ? task.task_tms : tms, repeat };
    await send(() => (task ? call('taskEdit', taskEditFields(form, task)) : call('taskAdd', taskAddFields(form))), onSaved);
  };

  const units: { value: IntervalUnit; label: string }[] = [
    { value: 'minute', label: t('taskManage.form.unitMinute') },
    { value: 'hour', label: t('taskManage.form.unitHour') },
    { value: 'day', label: t('taskManage.form.unitDay') },
  ];

  return (
    <SaveDialog
      open={open}
      title={task ? t('taskManage.form.editTitle') : t('taskManage.form.addTitle')}
      width={560}
      saving={saving}
      onSave={() => void save()}
      onClose={onClose}
      saveTestId="task-save"
    >
      <Form layout="vertical" data-testid="task-form">
        <Form.Item label={t('taskManage.form.device')} required {...shown(snError)}>
          <Select
            showSearch
            optionFilterProp="label"
            value={sn}
            onChange={(v: string) => {
              setSn(v);
              setMissionId(undefined);
            }}
            options={devices.map((d) => ({ value: d.sn_id, label: `${displayName(d)} (${d.sn_id})` }))}
            data-testid="task-device"
          />
        </Form.Item>
        <Form.Item label={t('taskManage.form.route')} required extra={t('taskManage.form.routeHint')} {...shown(routeError)}>
          <Select
            showSearch
            optionFilterProp="label"
            value={missionId}
            onChange={setMissionId}
            loading={routesLoading}
            disabled={!sn}
            options={routeOptions}
            notFoundContent={sn && !routesLoading ? t('taskManage.form.noRoutes') : undefined}
            data-testid="task-route"
          />
        </Form.Item>
        <Form.Item label={t('taskManage.form.time')} required {...shown(timeError)}>
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format={PICKER_FORMATS[lang].dateTime}
            value={time}
            onChange={(v) => setTime(v)}
            disabledDate={(d) => d.isBefore(dayjs().startOf('day'))}
            style={{ width: 240 }}
            data-testid="task-time"
          />
        </Form.Item>
        <Form.Item label={t('taskManage.form.repeat')} required {...shown(repeatError)}>
          <Space wrap>
            <Radio.Group
              value={repeat.on}
              onChange={(e) => setRepeat((r) => ({ ...r, on: e.target.value as boolean }))}
              options={[
                { value: false, label: t('taskManage.form.once') },
                { value: true, label: t('taskManage.form.repeating') },
              ]}
              data-testid="task-repeat"
            />
            {repeat.on && (
              <Space.Compact>
                <InputNumber
                  min={1}
                  precision={0}
                  value={repeat.every}
                  onChange={(v) => setRepeat((r) => ({ ...r, every: typeof v === 'number' ? v : null }))}
                  addonBefore={t('taskManage.form.every')}
                  style={{ width: 150 }}
                  data-testid="task-every"
                />
                <Select value={repeat.unit} onChange={(u: IntervalUnit) => setRepeat((r) => ({ ...r, unit: u }))} options={units} style={{ width: 100 }} data-testid="task-unit" />
              </Space.Compact>
            )}
          </Space>
        </Form.Item>
      </Form>
    </SaveDialog>
  );
}
