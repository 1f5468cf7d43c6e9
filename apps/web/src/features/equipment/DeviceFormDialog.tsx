import { Suspense, lazy, useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, Col, Form, Input, InputNumber, Modal, Row, Select, Space, Spin, Tooltip } from 'antd';
import { AimOutlined, CloseOutlined } from '@ant-design/icons';
import { Company, DeviceCategory, LinkType, SUPER_ADMINISTRATOR, type Device, type DeviceTypeKeyValue, type LatLng } from '@nest/contracts';
import { useI18n, type MessageKey } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { call } from '../../shared/request';
import { useUser } from '../../shared/session';
import { useTheme } from '../../shared/theme';
import type { ReferencePoint } from './PointPicker';
import { LIMITS, callFieldsOf, emptyForm, formFromDevice, formIssues, isNest, withType, type DeviceFormValues, type FormField, type PointTarget } from './form';

const PointPicker = lazy(() => import('./PointPicker'));

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
  onSaved: (d: Device) => void;
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
  onSaved: (d: Device) => void;
}): ReactNode {
  const { t, lang } = useI18n();
  const theme = useTheme();
  const user = useUser();
  const isSuper = user?.fun_list.includes(SUPER_ADMINISTRATOR) ?? false;
  const [v, setV] = useState<DeviceFormValues>(() => (device ? formFromDevice(device) : emptyForm()));
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const [picking, setPicking] = useState<PointTarget | null>(device ? null : 'airport_point');
  const issues = useMemo(() => formIssues(v), [v]);
  const nest = isNest(v.type);

  const set = (patch: Partial<DeviceFormValues>) => setV((prev) => ({ ...prev, ...patch }));
  /** validateStatus / help of a field: shown once the user tried to save. */
  const check = (field: FormField) => {
    const issue = tried ? issues[field] : undefined;
    return issue ? { validateStatus: 'error' as const, help: t(`equipment.invalid.${issue}` as MessageKey) } : {};
  };

  const pick = (target: PointTarget, p: LatLng) => {
    if (target === 'beacon') setV((prev) => ({ ...prev, beacon: { ...prev.beacon, lat: round(p.lat), lng: round(p.lng) } }));
    else set({ [target]: { lat: round(p.lat), lng: round(p.lng) } });
  };

  const save = async () => {
    setTried(true);
    if (Object.keys(issues).length > 0) {
      notify().warning(t('equipment.form.fix'));
      return;
    }
    setSaving(true);
    try {
      const saved = device
        ? await call('deviceEdit', callFieldsOf(v, device.id))
        : await call('deviceAdd', callFieldsOf(v));
      notify().success(t('admin.saved'));
      onSaved(saved);
    } catch {
      // The request layer showed the server's reason; the form stays as it was.
    } finally {
      setSaving(false);
    }
  };

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
    <Modal
      open
      width={1180}
      title={device ? t('equipment.form.editTitle', { name: device.airport_name || device.uav_name || device.sn_id }) : t('equipment.form.addTitle')}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('equipment.form.cancel')}
        </Button>,
        <Button key="save" type="primary" loading={saving} onClick={() => void save()} data-testid="device-save">
          {t('equipment.form.save')}
        </Button>,
      ]}
    >
      <Row gutter={24} className="equipment-form" data-testid="device-form">
        <Col span={11}>
          <Form layout="vertical" size="small" component="div">
            <Row gutter={12}>
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
              <Col span={12}>
                <Form.Item label={t('equipment.form.snId')} required tooltip={device ? t('equipment.form.snFixed') : t('equipment.form.snHint')} {...check('sn_id')}>
                  <Input value={v.sn_id} maxLength={LIMITS.sn} disabled={device !== null} onChange={(e) => set({ sn_id: e.target.value })} data-testid="field-sn" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item label={t('equipment.form.uavSn')} {...check('uav_sn')}>
                  <Input value={v.uav_sn} maxLength={LIMITS.sn} onChange={(e) => set({ uav_sn: e.target.value })} data-testid="field-uav-sn" />
                </Form.Item>
              </Col>
              {nest && (
                <Col span={12}>
                  <Form.Item label={t('equipment.form.airportName')} required {...check('airport_name')}>
                    <Input value={v.airport_name} maxLength={LIMITS.name} onChange={(e) => set({ airport_name: e.target.value })} data-testid="field-airport-name" />
                  </Form.Item>
                </Col>
              )}
              <Col span={12}>
                <Form.Item label={t('equipment.form.uavName')} required {...check('uav_name')}>
                  <Input value={v.uav_name} maxLength={LIMITS.name} onChange={(e) => set({ uav_name: e.target.value })} data-testid="field-uav-name" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item label={t('equipment.form.uavModel')} {...check('uav_model')}>
                  <Input value={v.uav_model} maxLength={LIMITS.model} onChange={(e) => set({ uav_model: e.target.value })} data-testid="field-uav-model" />
                </Form.Item>
              </Col>
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
              <Col span={24}>
                <Form.Item label={t('equipment.form.address')} {...check('address')}>
                  <Input value={v.address} maxLength={LIMITS.address} onChange={(e) => set({ address: e.target.value })} data-testid="field-address" />
                </Form.Item>
              </Col>
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
    </Modal>
  );
}

/** Map clicks are far finer than a point needs: 7 decimals (about 1 cm) are kept. */
const round = (x: number): number => Math.round(x * 1e7) / 1e7;
