import { Suspense, lazy, useMemo, useState, type ReactNode } from 'react';
import { Alert, AutoComplete, Button, Col, Form, Input, InputNumber, Row, Select, Space, Spin, Tooltip } from 'antd';
import { AimOutlined, CloseOutlined } from '@ant-design/icons';
import { Company, DeviceCategory, DeviceProtocol, LinkType, SUPER_ADMINISTRATOR, type Device, type DeviceAdded, type DeviceProtocolValue, type DeviceTypeKeyValue, type LatLng } from '@nest/contracts';
import { useI18n, type MessageKey } from '../../shared/i18n';
import { useSave } from '../../shared/admin';
import { SaveDialog, useFieldErrors } from '../../shared/dialogs';
import { notify } from '../../shared/notify';
import { call } from '../../shared/request';
import { useUser } from '../../shared/session';
import { useTheme } from '../../shared/theme';
import type { ReferencePoint } from './PointPicker';
import { DJI_MODEL_NAMES, LIMITS, callFieldsOf, emptyForm, formFromDevice, formIssues, isDji, isNest, withType, type DeviceFormValues, type FormField, type PointTarget } from './form';

const PointPicker = lazy(() => import('./PointPicker'));

/** The fields edited with a one-line text input. */
type TextField = 'sn_id' | 'uav_sn' | 'airport_name' | 'uav_name' | 'uav_model' | 'address';

const fmt = (p: LatLng | null | undefined): string | null => (p ? `${p.lat.toFixed(6)}, ${p.lng.toFixed(6)}` : null);

/**
 * Add or edit a device: every Device field, the airport coordinate, the alternate landing point and the
 * beacon picked on the map. `device` null adds. The form's rules mirror the registry and the server's; the
 * server's refusal (shown by the request layer) keeps the dialog open.
 */
export function DeviceFormDialog({
  open,
  device,
  reference,
  onClose,
  onSaved,
}: {
  open: boolean;
  device: Device | null;
  /** The other devices with a known position, drawn on the map for orientation. */
  reference: readonly ReferencePoint[];
  onClose: () => void;
  /** After adding a DJI device the answer carries its credentials (`dji`), shown once by the caller. */
  onSaved: (d: DeviceAdded) => void;
}): ReactNode {
  return open ? <DeviceForm device={device} reference={reference} onClose={onClose} onSaved={onSaved} /> : null;
}

function DeviceForm({
  device,
  reference,
  onClose,
  onSaved,
}: {
  device: Device | null;
  reference: readonly ReferencePoint[];
  onClose: () => void;
  onSaved: (d: DeviceAdded) => void;
}): ReactNode {
  const { t, lang } = useI18n();
  const theme = useTheme();
  const user = useUser();
  const isSuper = user?.fun_list.includes(SUPER_ADMINISTRATOR) ?? false;
  const [v, setV] = useState<DeviceFormValues>(() => (device ? formFromDevice(device) : emptyForm()));
  const { attempt, shown } = useFieldErrors();
  // The server's refusal is shown by the request layer; the form stays as it was.
  const { saving, save: send } = useSave();
  const [picking, setPicking] = useState<PointTarget | null>(device ? null : 'airport_point');
  const issues = useMemo(() => formIssues(v), [v]);
  const nest = isNest(v.type);
  const dji = isDji(v);

  const set = (patch: Partial<DeviceFormValues>) => setV((prev) => ({ ...prev, ...patch }));
  /** validateStatus / help of a field: shown once the user tried to save. */
  const check = (field: FormField) => {
    const issue = issues[field];
    return shown(issue && t(`equipment.invalid.${issue}` as MessageKey));
  };

  const pick = (target: PointTarget, p: LatLng) => {
    if (target === 'beacon') setV((prev) => ({ ...prev, beacon: { ...prev.beacon, lat: round(p.lat), lng: round(p.lng) } }));
    else set({ [target]: { lat: round(p.lat), lng: round(p.lng) } });
  };

  const save = async () => {
    attempt();
    if (Object.keys(issues).length > 0) {
      notify().warning(t('equipment.form.fix'));
      return;
    }
    await send(() => (device ? call('deviceEdit', callFieldsOf(v, device.id)) : call('deviceAdd', callFieldsOf(v))), onSaved);
  };

  /** A one-line text field of the device, its value held in the form state. */
  const textField = (field: TextField, label: string, max: number, testId: string, more: { required?: boolean; tooltip?: string; disabled?: boolean; span?: number } = {}) => (
    <Col span={more.span ?? 12}>
      <Form.Item label={label} required={more.required} tooltip={more.tooltip} {...check(field)}>
        <Input value={v[field]} maxLength={max} disabled={more.disabled} onChange={(e) => set({ [field]: e.target.value })} data-testid={testId} />
      </Form.Item>
    </Col>
  );

  const pointRow = (target: Exclude<PointTarget, 'beacon'>, label: string) => (
    <Form.Item label={label} required={target === 'airport_point' && nest} {...check(target)}>
      <Space wrap>
        <span className="equipment-coord" data-testid={`coord-${target}`}>
          {fmt(v[target]) ?? t('equipment.form.notSet')}
        </span>
        <Button
          size="small"
          icon={<AimOutlined />}
          type={picking === target ? 'primary' : 'default'}
          onClick={() => setPicking(picking === target ? null : target)}
          data-testid={`pick-${target}`}
        >
          {picking === target ? t('equipment.form.picking') : t('equipment.form.pick')}
        </Button>
        {v[target] && (
          <Button size="small" icon={<CloseOutlined />} onClick={() => set({ [target]: null })} aria-label={t('equipment.form.clear')}>
            {t('equipment.form.clear')}
          </Button>
        )}
      </Space>
    </Form.Item>
  );

  const beaconNumber = (key: 'lat' | 'lng' | 'height', label: string, min: number, max: number, tooltip?: string) => (
    <Form.Item label={label} tooltip={tooltip} {...check(`beacon.${key}`)}>
      <InputNumber
        value={v.beacon[key]}
        min={min}
        max={max}
        step={key === 'height' ? 0.1 : 0.000001}
        onChange={(n) => setV((prev) => ({ ...prev, beacon: { ...prev.beacon, [key]: n ?? null } }))}
        style={{ width: '100%' }}
        data-testid={`beacon-${key}`}
      />
    </Form.Item>
  );

  return (
    <SaveDialog
      width={1180}
      title={device ? t('equipment.form.editTitle', { name: device.airport_name || device.uav_name || device.sn_id }) : t('equipment.form.addTitle')}
      saving={saving}
      onSave={() => void save()}
      onClose={onClose}
      saveTestId="device-save"
      okText={t('equipment.form.save')}
      cancelText={t('equipment.form.cancel')}
      maskClosable={false}
    >
      <Row gutter={24} className="equipment-form" data-testid="device-form">
        <Col span={11}>
          <Form layout="vertical" size="small" component="div">
            <Row gutter={12}>
              <Col span={24}>
                <Form.Item label={t('equipment.form.protocol')} required tooltip={device ? t('equipment.form.protocolFixed') : undefined}>
                  <Select
                    value={v.protocol}
                    options={DeviceProtocol.options(lang)}
                    disabled={device !== null}
                    onChange={(protocol: DeviceProtocolValue) => set({ protocol })}
                    data-testid="field-protocol"
                  />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item label={t('equipment.form.type')} required>
                  <Select
                    value={v.type}
                    options={DeviceCategory.options(lang)}
                    onChange={(type: DeviceTypeKeyValue) => setV((prev) => withType(prev, type))}
                    data-testid="field-type"
                  />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item label={t('equipment.form.linkType')} required {...check('link_type')}>
                  <Select
                    value={v.link_type}
                    options={LinkType.options(lang).map((o) => ({ ...o, disabled: o.value === 1 && !nest }))}
                    onChange={(link_type: 1 | 2 | 3) => set({ link_type })}
                    data-testid="field-link-type"
                  />
                </Form.Item>
              </Col>
              {textField('sn_id', t('equipment.form.snId'), LIMITS.sn, 'field-sn', {
                required: true,
                tooltip: device ? t('equipment.form.snFixed') : dji ? t('equipment.form.djiSnHint') : t('equipment.form.snHint'),
                disabled: device !== null,
              })}
              {dji
                ? textField('uav_sn', t('equipment.form.djiUavSn'), LIMITS.sn, 'field-uav-sn', { required: true, tooltip: t('equipment.form.djiUavSnHint') })
                : textField('uav_sn', t('equipment.form.uavSn'), LIMITS.sn, 'field-uav-sn')}
              {nest && textField('airport_name', t('equipment.form.airportName'), LIMITS.name, 'field-airport-name', { required: true })}
              {textField('uav_name', t('equipment.form.uavName'), LIMITS.name, 'field-uav-name', { required: true })}
              {dji ? (
                <Col span={12}>
                  <Form.Item label={t('equipment.form.uavModel')} tooltip={t('equipment.form.djiModelHint')} {...check('uav_model')}>
                    <AutoComplete
                      value={v.uav_model}
                      options={DJI_MODEL_NAMES.map((name) => ({ value: name }))}
                      filterOption={(input, o) => (o?.value ?? '').toLowerCase().includes(input.toLowerCase())}
                      maxLength={LIMITS.model}
                      onChange={(uav_model: string) => set({ uav_model })}
                      data-testid="field-uav-model"
                    />
                  </Form.Item>
                </Col>
              ) : (
                textField('uav_model', t('equipment.form.uavModel'), LIMITS.model, 'field-uav-model')
              )}
              {nest && (
                <Col span={12}>
                  <Form.Item label={t('equipment.form.azimuth')} tooltip={t('equipment.form.azimuthHint')} {...check('azimuth')}>
                    <InputNumber
                      value={v.azimuth}
                      min={0}
                      max={360}
                      placeholder={t('equipment.form.notSet')}
                      onChange={(n) => set({ azimuth: n ?? null })}
                      style={{ width: '100%' }}
                      data-testid="field-azimuth"
                    />
                  </Form.Item>
                </Col>
              )}
              {isSuper && (
                <Col span={12}>
                  <Form.Item label={t('equipment.form.company')}>
                    <Select
                      value={v.company || user?.in_com.id}
                      options={Company.options(lang)}
                      onChange={(company: string) => set({ company })}
                      data-testid="field-company"
                    />
                  </Form.Item>
                </Col>
              )}
              {textField('address', t('equipment.form.address'), LIMITS.address, 'field-address', { span: 24 })}
              <Col span={24}>
                <Form.Item label={t('equipment.form.description')} {...check('description')}>
                  <Input.TextArea
                    value={v.description}
                    maxLength={LIMITS.description}
                    autoSize={{ minRows: 2, maxRows: 4 }}
                    onChange={(e) => set({ description: e.target.value })}
                    data-testid="field-description"
                  />
                </Form.Item>
              </Col>
            </Row>
          </Form>
        </Col>
        <Col span={13}>
          <Form layout="vertical" size="small" component="div">
            {!nest && <Alert type="info" showIcon message={t('equipment.form.aloneNote')} className="equipment-alone-note" />}
            {pointRow('airport_point', nest ? t('equipment.form.airportPoint') : t('equipment.form.takeoffPoint'))}
            {nest && pointRow('altn_point', t('equipment.form.altnPoint'))}
            {nest && (
              <Form.Item label={t('equipment.form.beacon')} className="equipment-beacon" {...check('beacon')}>
                <Row gutter={8} align="bottom">
                  <Col span={8}>{beaconNumber('lat', t('equipment.form.beaconLat'), -90, 90)}</Col>
                  <Col span={8}>{beaconNumber('lng', t('equipment.form.beaconLng'), -180, 180)}</Col>
                  <Col span={6}>{beaconNumber('height', t('equipment.form.beaconHeight'), -1000, 10000, t('equipment.form.beaconHeightHint'))}</Col>
                  <Col span={2}>
                    <Form.Item label=" ">
                      <Tooltip title={picking === 'beacon' ? t('equipment.form.picking') : t('equipment.form.pick')}>
                        <Button
                          size="small"
                          icon={<AimOutlined />}
                          type={picking === 'beacon' ? 'primary' : 'default'}
                          onClick={() => setPicking(picking === 'beacon' ? null : 'beacon')}
                          aria-label={t('equipment.form.pick')}
                          data-testid="pick-beacon"
                        />
                      </Tooltip>
                    </Form.Item>
                  </Col>
                </Row>
              </Form.Item>
            )}
          </Form>
          <p className="equipment-map-hint">{t('equipment.form.mapHint')}</p>
          <div className="equipment-map-box">
            <Suspense fallback={<Spin />}>
              <PointPicker
                theme={theme}
                reference={reference.filter((r) => r.sn !== device?.sn_id)}
                active={picking}
                onPick={pick}
                points={{
                  airport_point: v.airport_point,
                  altn_point: nest ? v.altn_point : null,
                  beacon: nest && v.beacon.lat !== null && v.beacon.lng !== null ? { lat: v.beacon.lat, lng: v.beacon.lng } : null,
                }}
              />
            </Suspense>
          </div>
        </Col>
      </Row>
    </SaveDialog>
  );
}

/** Map clicks are far finer than a point needs: 7 decimals (about 1 cm) are kept. */
const round = (x: number): number => Math.round(x * 1e7) / 1e7;
