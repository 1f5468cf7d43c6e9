import { Suspense, lazy, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Button, DatePicker, Input, InputNumber, Segmented, Select, Spin } from 'antd';
import { ArrowLeftOutlined, SaveOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { NO_FLY_RADIUS_MAX_M, NoFlyShape, type DeviceListItem, type Fence, type Mission } from '@nest/contracts';
import { PICKER_FORMATS } from '../../../shared/format';
import { useI18n } from '../../../shared/i18n';
import { invalidateCall, useCall } from '../../../shared/query';
import { call, RequestError } from '../../../shared/request';
import { notify } from '../../../shared/notify';
import { useTheme } from '../../../shared/theme';
import type { PlanEdit, PlanShape } from '../../../shared/map/PlanMap';
import { useZones } from '../../../shared/map/zones';
import { NO_FLY_COLORS, useNoFlyZones } from '../../../shared/map/noFly';
import { insertAt, removeAt, replaceAt } from '../editor/store';
import { BLOCKED_COLOR, nowSeconds, routesBlockedBy } from './conflicts';
import { DEFAULT_RADIUS_M, draftOf, draftProblems, draftRing, emptyDraft, fieldsOf, radiusHandle, radiusTo, shapeIssues, zoneOfDraft, type NoFlyDraft } from './draft';
import '../editor/editWork.css';
import './noFly.css';

const PlanMap = lazy(() => import('../../../shared/map/PlanMap'));

const NO_DEVICES: DeviceListItem[] = [];
const NO_FENCES: Fence[] = [];
const NO_MISSIONS: Mission[] = [];
/** Every saved route is checked against the zone being drawn (the list's largest page). */
const ROUTE_PAGE = 1000;
/** The saved routes drawn for context while a zone is drawn. */
const CONTEXT_COLOR = '#8a94a6';

/** The date-and-minute format of the validity pickers: the language's one format (contracts formatDateTime). */
/**
 * The no-fly zone editor (/editWork?mode=nofly[&id=]): the zone drawn on the map as a polygon (click
 * corners, drag, insert at an edge's middle, right-click or Delete to remove) or a circle (click the centre,
 * drag it or the radius handle, or type the radius), its name, reason, device and validity period on the
 * right, the checks the server makes, and the saved routes the zone would block (a warning: an urgent zone
 * is saved anyway, and those routes then cannot be saved or take off until they keep out of it).
 */
export default function NoFlyEditPage(): ReactNode {
  const { t, lang } = useI18n();
  const theme = useTheme();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id');
  // A route to draw the zone by ("a no-fly zone here" from the route list): the map opens on it.
  const near = params.get('near');
  const zones = useZones();
  const noFly = useNoFlyZones();
  const noFlyRead = useCall('noFlyList', { page: 0, size: 1000 }, { quiet: true });
  const deviceList = useCall('deviceList', { type: 0, page: 0, size: 200 }, { quiet: true });
  const fenceList = useCall('fenceList', { page: 0, size: 1000 }, { quiet: true });
  const missionList = useCall('missionList', { page: 0, size: ROUTE_PAGE }, { quiet: true });
  const devices = deviceList.data?.list ?? NO_DEVICES;
  const fences = fenceList.data?.list ?? NO_FENCES;
  const routes = missionList.data?.list ?? NO_MISSIONS;

  const [draft, setDraft] = useState<NoFlyDraft>(emptyDraft);
  const [selected, setSelected] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const set = (patch: Partial<NoFlyDraft>) => setDraft((d) => ({ ...d, ...patch }));

  // The zone being edited starts the draft once the list is read (a new zone starts empty at once).
  const [started, setStarted] = useState(!id);
  useEffect(() => {
    if (started || noFlyRead.isFetching || !noFlyRead.data) return;
    const z = noFlyRead.data.list.find((x) => x.id === id);
    if (z) setDraft(draftOf(z));
    setStarted(true);
  }, [started, id, noFlyRead.isFetching, noFlyRead.data]);

  const circle = draft.shape === NoFlyShape.CIRCLE;
  const ring = useMemo(() => draftRing(draft), [draft]);
  const problems = draftProblems(draft);
  const outline = useMemo(() => shapeIssues(draft), [draft]);
  const badCorners = new Set(outline.flatMap((i) => (i.item.index !== undefined ? [i.item.index] : [])));
  // Where the outline goes wrong without a corner to blame (the point where it crosses itself).
  const marks = outline.flatMap((i) => (i.item.index === undefined && i.at ? [i.at] : []));
  const fenceById = useMemo(() => new Map(fences.map((f) => [f.id, f])), [fences]);
  // A zone not named yet is named so in the list of routes it would block.
  const unnamed = t('routeplan.nofly.unnamed');
  const blocked = useMemo(
    () => (ring.length >= 3 ? routesBlockedBy({ ...zoneOfDraft(draft), name: draft.name.trim() || unnamed }, routes, fenceById, nowSeconds()) : []),
    [draft, ring, routes, fenceById, unnamed],
  );
  const canSave = started && !saving && problems.length === 0 && outline.length === 0;

  // Delete / Backspace removes the selected corner (outside text fields).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.isContentEditable)) return;
      if ((e.key === 'Delete' || e.key === 'Backspace') && selected !== null && !circle) {
        e.preventDefault();
        setDraft((d) => ({ ...d, boundary: removeAt(d.boundary, selected) }));
        setSelected(null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [selected, circle]);

  // ---------------------------------------------------------------- map
  const edit: PlanEdit | null = !started
    ? null
    : circle
      ? {
          // The centre and the radius handle; the edge between them shows the radius.
          points: draft.center ? [draft.center, radiusHandle(draft.center, draft.radius ?? DEFAULT_RADIUS_M)] : [],
          closed: false,
          noInsert: true,
          selected: null,
          onAdd: (p) => {
            if (!draft.center) set({ center: p, radius: draft.radius ?? DEFAULT_RADIUS_M });
          },
          onMove: (i, p) => {
            if (i === 0) set({ center: p });
            else if (draft.center) set({ radius: radiusTo(draft.center, p) });
          },
          onInsert: () => undefined,
          onRemove: (i) => i === 0 && set({ center: null }),
          onSelect: () => undefined,
        }
      : {
          points: draft.boundary,
          closed: true,
          badPoints: badCorners,
          selected,
          onAdd: (p) => set({ boundary: [...draft.boundary, p] }),
          onMove: (i, p) => set({ boundary: replaceAt(draft.boundary, i, p) }),
          onInsert: (i, p) => set({ boundary: insertAt(draft.boundary, i, p) }),
          onRemove: (i) => {
            set({ boundary: removeAt(draft.boundary, i) });
            setSelected(null);
          },
          onSelect: setSelected,
        };
  const nearRoute = near ? routes.find((r) => r.id === near) ?? null : null;
  const shapes: PlanShape[] = [
    // The saved routes, thin and grey, to draw the zone by.
    ...routes.filter((r) => !blocked.some((b) => b.id === r.id)).map((r) => ({ id: `route-${r.id}`, kind: 'transect' as const, points: r.waypoints, color: CONTEXT_COLOR })),
    ...(ring.length >= 3 ? [{ id: 'nofly-draft', kind: 'zone' as const, points: ring, color: NO_FLY_COLORS.stroke }] : []),
    // The routes the zone would block, in red.
    ...blocked.flatMap((b) => {
      const r = routes.find((x) => x.id === b.id);
      return r ? [{ id: `blocked-${b.id}`, kind: 'route' as const, points: r.waypoints, color: BLOCKED_COLOR }] : [];
    }),
  ];
  const others = useMemo(() => noFly.filter((z) => z.id !== id), [noFly, id]);
  // Fit once: to the zone being edited, else to the route it is drawn by, else to the company's fences
  // (where its routes fly).
  const fit = !started ? undefined : id ? ring : nearRoute ? nearRoute.waypoints : near ? undefined : fences.flatMap((f) => f.boundary);

  // ---------------------------------------------------------------- save
  const save = async () => {
    setRefusal(null);
    setSaving(true);
    try {
      const fields = fieldsOf(draft);
      if (id) await call('noFlyEdit', { id, ...fields }, { quiet: true });
      else await call('noFlyAdd', fields, { quiet: true });
      // Routes turn red (or back) in the route list as the zones change.
      void invalidateCall('noFlyList', 'missionList');
      notify().success(t('routeplan.saved'));
      void navigate('/routeplan?tab=nofly');
    } catch (err) {
      setRefusal(err instanceof RequestError ? err.text : String(err));
    } finally {
      setSaving(false);
    }
  };

  const validFrom = draft.valid_from !== null ? dayjs.unix(draft.valid_from) : null;
  const validTo = draft.valid_to !== null ? dayjs.unix(draft.valid_to) : null;
  const periodStatus = problems.some((p) => p.key === 'period') ? ('error' as const) : undefined;
  const problemText = (p: (typeof problems)[number]) => (p.key === 'radius' ? t('routeplan.nofly.issues.radius', { max: p.max }) : t(`routeplan.nofly.issues.${p.key}`));

  return (
    <div className="edit-work" data-testid="edit-work" data-mode="nofly">
      <div className="edit-work-bar">
        <Button size="small" icon={<ArrowLeftOutlined />} onClick={() => void navigate('/routeplan?tab=nofly')}>
          {t('routeplan.back')}
        </Button>
        <h2>{t('routeplan.mode.nofly')}</h2>
        <Button type="primary" size="small" icon={<SaveOutlined />} disabled={!canSave} loading={saving} onClick={() => void save()} data-testid="save">
          {t('common.save')}
        </Button>
      </div>
      <div className="edit-work-body">
        <div className="edit-work-map">
          <Suspense fallback={<Spin className="edit-work-spin" />}>
            <PlanMap theme={theme} shapes={shapes} edit={edit} fit={fit} fitKey={id ?? near ?? 'new'} marks={marks} zones={zones} noFly={others} />
          </Suspense>
          <div className="edit-work-hint">{t(circle ? 'routeplan.nofly.hint.circle' : 'routeplan.nofly.hint.polygon')}</div>
        </div>
        <aside className="edit-work-side">
          {!started ? (
            <Spin />
          ) : (
            <>
              <section>
                <label className="edit-field">
                  <span>{t('routeplan.nofly.field.name')}</span>
                  <Input size="small" value={draft.name} maxLength={64} onChange={(e) => set({ name: e.target.value })} data-testid="nofly-name" />
                </label>
                <label className="edit-field">
                  <span>{t('routeplan.nofly.field.reason')}</span>
                  <Input.TextArea size="small" value={draft.reason} maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} placeholder={t('routeplan.nofly.field.reasonPlaceholder')}
                    onChange={(e) => set({ reason: e.target.value })} data-testid="nofly-reason" />
                </label>
                <div className="edit-field">
                  <span>{t('routeplan.nofly.field.shape')}</span>
                  <Segmented size="small" value={draft.shape} options={NoFlyShape.options(lang)} onChange={(v) => { set({ shape: v as 1 | 2 }); setSelected(null); }} data-testid="nofly-shape" />
                </div>
                {circle && (
                  <label className="edit-field">
                    <span>{t('routeplan.nofly.field.radius')}</span>
                    <InputNumber size="small" value={draft.radius} min={0} step={10} placeholder={`0–${NO_FLY_RADIUS_MAX_M} m`}
                      status={problems.some((p) => p.key === 'radius') ? 'error' : undefined}
                      onChange={(v) => set({ radius: v === null ? null : Number(v) })} data-testid="nofly-radius" />
                  </label>
                )}
                <label className="edit-field">
                  <span>{t('routeplan.nofly.field.device')}</span>
                  <Select size="small" value={draft.sn_id} onChange={(v: string) => set({ sn_id: v })} data-testid="nofly-device"
                    options={[{ value: '', label: t('routeplan.nofly.allDevices') }, ...devices.map((d) => ({ value: d.sn_id, label: `${d.name || d.sn_id} (${d.sn_id})` }))]} />
                </label>
                <div className="edit-field nofly-period" data-testid="nofly-period">
                  <span>{t('routeplan.nofly.field.validity')}</span>
                  {/* Two pickers stacked, each the panel's width: a range picker side by side cut the times off. */}
                  <DatePicker size="small" showTime={{ format: 'HH:mm' }} format={PICKER_FORMATS[lang].dateTime} value={validFrom}
                    placeholder={t('routeplan.nofly.field.validFrom')} status={periodStatus}
                    onChange={(d: Dayjs | null) => set({ valid_from: d ? d.second(0).unix() : null })}
                    data-testid="nofly-valid-from" />
                  <DatePicker size="small" showTime={{ format: 'HH:mm' }} format={PICKER_FORMATS[lang].dateTime} value={validTo}
                    placeholder={t('routeplan.nofly.field.validTo')} status={periodStatus}
                    onChange={(d: Dayjs | null) => set({ valid_to: d ? d.second(59).unix() : null })}
                    data-testid="nofly-valid-to" />
                </div>
              </section>
              <section className="edit-blocks" data-testid="nofly-blocks" data-count={blocked.length}>
                {blocked.length === 0 ? (
                  <div className="edit-stat">{t('routeplan.nofly.blocksNone')}</div>
                ) : (
                  <Alert type="warning" showIcon title={t('routeplan.nofly.blocks', { n: blocked.length })}
                    description={
                      <>
                        <ul className="edit-blocks-list">
                          {blocked.map((b) => (
                            <li key={b.id} data-testid="nofly-blocked-route" data-name={b.name}>
                              <strong>{b.name}</strong>
                              <span>{b.issue.text[lang]}</span>
                            </li>
                          ))}
                        </ul>
                        <div className="edit-stat">{t('routeplan.nofly.blocksNote')}</div>
                      </>
                    } />
                )}
              </section>
              <section className="edit-issues" data-testid="issues">
                <h3>{t('routeplan.issues.title')}</h3>
                {problems.map((p) => (
                  <div key={p.key} className="edit-issue" data-testid="issue" data-key={p.key}>
                    {problemText(p)}
                  </div>
                ))}
                {[...new Set(outline.map((i) => i.text[lang]))].map((text) => (
                  <div key={text} className="edit-issue" data-testid="issue">
                    {text}
                  </div>
                ))}
                {problems.length === 0 && outline.length === 0 && <div className="edit-ok">{t('routeplan.issues.none')}</div>}
                {refusal && <Alert type="error" showIcon title={t('routeplan.issues.refused')} description={refusal} data-testid="save-refusal" />}
              </section>
            </>
          )}
        </aside>
      </div>
    </div>
  );
}
