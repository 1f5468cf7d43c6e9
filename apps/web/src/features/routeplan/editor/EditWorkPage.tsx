import { Suspense, lazy, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Button, Checkbox, Input, InputNumber, Select, Space, Spin, Switch, Tooltip } from 'antd';
import { ArrowLeftOutlined, DeleteOutlined, RedoOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import {
  MissionType,
  CameraType,
  ExecutionType,
  FinishAction,
  HeightType,
  PhotoType,
  MISSION_LIMITS,
  WAYPOINT_LIMITS,
  CORRIDOR_WIDTH_MAX_M,
  formatAreaText,
  formatDistanceText,
  formatMmSs,
  type DeviceListItem,
  type Fence,
  type LatLng,
  type Waypoint,
} from '@nest/contracts';
import { IssueCode, prepareRing, routeDistance, surveyAvoidRings } from '@nest/geo';
import { useI18n } from '../../../shared/i18n';
import { invalidateCall, useCall } from '../../../shared/query';
import { call, RequestError } from '../../../shared/request';
import { notify } from '../../../shared/notify';
import { useTheme } from '../../../shared/theme';
import type { PlanEdit, PlanShape } from '../../../shared/map/PlanMap';
import { DEFAULT_ROUTE, WorkStore, derive, setPhotoKind, useWorkState, withAction, type EditMode, type RouteDraft, type Target } from './store';
import { convexHull, flightsNeeded, gridWaypoints, gsdForHeight, heightForGsd, highlightsOf, issueLineTexts, stripPreview, surveyPreview, validate, type OtherFence, type StripPreview } from './planning';
import { useZones } from '../../../shared/map/zones';
import { useNoFlyZones } from '../../../shared/map/noFly';
import { nowSeconds, zonesFor } from '../nofly/conflicts';
import './editWork.css';

const PlanMap = lazy(() => import('../../../shared/map/PlanMap'));

const MODES: readonly EditMode[] = ['fence', 'route', 'survey', 'strip'];
/** The rules a survey area's corners are held to: inside the fence, under its height. */
const AREA_CODES: ReadonlySet<string> = new Set([IssueCode.WAYPOINT_OUTSIDE_FENCE, IssueCode.WAYPOINT_ABOVE_FENCE]);
/** How long the note about a click outside the fence stays (ms). */
const OUTSIDE_NOTE_MS = 4000;
const MISSION_TYPE_OF: Record<Exclude<EditMode, 'fence'>, 1 | 2 | 3> = { route: 1, survey: 2, strip: 3 };
/** Modes whose waypoints the planner generates from an area or a corridor. */
const GENERATED: ReadonlySet<EditMode> = new Set(['survey', 'strip']);
/** No fences or devices (none read yet, or the read failed), the same lists on every render. */
const NO_FENCES: Fence[] = [];
const NO_DEVICES: DeviceListItem[] = [];

/** Half the side of the view a new fence opens on around its nest, in degrees of latitude (about 1 km). */
const NEST_VIEW_HALF_DEG = 0.009;

/** The corners of a square view around a point (half side `half` degrees of latitude, as wide on the ground). */
const aroundPoint = (p: LatLng, half: number): LatLng[] => {
  const dLng = half / Math.max(0.1, Math.cos((p.lat * Math.PI) / 180));
  return [
    { lat: p.lat - half, lng: p.lng - dLng },
    { lat: p.lat + half, lng: p.lng + dLng },
  ];
};

/** The take-off point of routes in a fence: the airport of the fence's device, as the server takes it. */
const homeOf = (devices: readonly DeviceListItem[], sn: string | undefined): LatLng | null =>
  (sn ? devices.find((d) => d.sn_id === sn)?.airport_point : null) ?? null;

export default function EditWorkPage(): ReactNode {
  const { t, lang } = useI18n();
  const theme = useTheme();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const modeParam = params.get('mode') as EditMode | null;
  const mode: EditMode = modeParam && MODES.includes(modeParam) ? modeParam : 'fence';
  const id = params.get('id');

  const [store] = useState(() => new WorkStore());
  const s = useWorkState(store);
  const [selected, setSelected] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  // The server refused the route for its length (route.needs_split): saving it split is offered.
  const [needsSplit, setNeedsSplit] = useState(false);
  const zones = useZones();
  const noFlyZones = useNoFlyZones();
  // Clicks outside the fence since the last added point (0: no note shown).
  const [outside, setOutside] = useState(0);
  useEffect(() => {
    if (outside === 0) return;
    const timer = setTimeout(() => setOutside(0), OUTSIDE_NOTE_MS);
    return () => clearTimeout(timer);
  }, [outside]);

  // ---------------------------------------------------------------- load
  // The fences and devices (read quietly: a list that cannot be read is empty), then the fence or route being
  // edited (a failure is shown by the request layer, and the editor opens empty).
  const fenceList = useCall('fenceList', { page: 0, size: 1000 }, { quiet: true });
  const deviceList = useCall('deviceList', { type: 0, page: 0, size: 200 }, { quiet: true });
  const fences = useMemo(() => fenceList.data?.list ?? NO_FENCES, [fenceList.data]);
  const devices = useMemo(() => deviceList.data?.list ?? NO_DEVICES, [deviceList.data]);
  // Settled reads only: an answer still cached from an earlier screen is read again before the editor starts from it.
  const listsRead = !fenceList.isFetching && !deviceList.isFetching;
  // A fence is taken from the list when it is there, else read alone.
  const listed = mode === 'fence' && id ? fences.find((x) => x.id === id) : undefined;
  const fenceOne = useCall('fenceOne', mode === 'fence' && id && listsRead && !listed ? { id } : null);
  const missionInfo = useCall('missionInfo', mode !== 'fence' && id ? { id } : null);

  // The editor starts from what was read, once per mode and record: later reads of the lists leave the edits alone.
  const opened = `${mode} ${id ?? ''}`;
  const [started, setStarted] = useState<string | null>(null);
  const loading = started !== opened;
  useEffect(() => {
    if (started === opened || !listsRead) return;
    if (mode === 'fence') {
      if (id && !listed && (fenceOne.isPending || fenceOne.isFetching)) return;
      const f = id ? (listed ?? (fenceOne.isError ? null : fenceOne.data) ?? null) : null;
      if (!id || f) {
        store.reset({
          fence: f ? { name: f.name, max_height: f.max_height, boundary: f.boundary, sn_id: f.sn_id } : { name: '', max_height: 120, boundary: [], sn_id: devices[0]?.sn_id ?? '' },
          fenceId: f?.id ?? null,
          routeItem: null,
        });
      }
    } else {
      if (id && (missionInfo.isPending || missionInfo.isFetching)) return;
      const m = id && !missionInfo.isError ? (missionInfo.data ?? null) : null;
      if (!id || m) {
        const fence = m ? fences.find((x) => x.id === m.fence_id) ?? null : null;
        const route: RouteDraft = m
          ? {
              ...DEFAULT_ROUTE,
              ...m,
              area: m.mission_type === MissionType.SURVEY ? (m.survey_polygon ?? convexHull(m.waypoints)) : [],
              line: m.corridor_line ?? [],
              corridor_width: m.corridor_width ?? DEFAULT_ROUTE.corridor_width,
            }
          : { ...DEFAULT_ROUTE, mission_type: MISSION_TYPE_OF[mode], fence_id: '', camera_type: GENERATED.has(mode) ? '6k' : 'custom' };
        store.reset({
          fence: fence ? { name: fence.name, max_height: fence.max_height, boundary: fence.boundary, sn_id: fence.sn_id } : null,
          fenceId: fence?.id ?? null,
          routeItem: route,
          home: homeOf(devices, fence?.sn_id),
        });
      }
    }
    setStarted(opened);
  }, [
    started, opened, listsRead, mode, id, listed, fences, devices, store,
    fenceOne.isPending, fenceOne.isFetching, fenceOne.isError, fenceOne.data,
    missionInfo.isPending, missionInfo.isFetching, missionInfo.isError, missionInfo.data,
  ]);

  // ---------------------------------------------------------------- undo / redo / delete keys
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.isContentEditable)) return;
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z') {
        e.preventDefault();
        if (e.shiftKey) store.redo();
        else store.undo();
      } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'y') {
        e.preventDefault();
        store.redo();
      } else if ((e.key === 'Delete' || e.key === 'Backspace') && selected !== null) {
        e.preventDefault();
        store.removePoint(target, selected);
        setSelected(null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const target: Target = mode === 'fence' ? 'fence' : mode === 'survey' ? 'area' : mode === 'strip' ? 'line' : 'waypoints';
  const route = s.routeItem;

  // ---------------------------------------------------------------- survey preview -> waypoints
  // The grid starts from the corner nearest the take-off point, as the server makes it.
  // A strip route's corridor lines likewise (geo corridorFromSettings), with the band to draw.
  // The company no-fly zones restricting the fence's device now: a route entering one is not saved, and
  // a survey grid goes around them and the restricting map zones (geo surveyAvoidRings), as the server's.
  const noFly = useMemo(() => zonesFor(noFlyZones, s.fence, nowSeconds()), [noFlyZones, s.fence]);
  const avoid = useMemo(() => surveyAvoidRings(noFly, zones), [noFly, zones]);
  const preview = useMemo(
    () => (!route ? null : mode === 'survey' ? surveyPreview(route, s.home ?? undefined, avoid) : mode === 'strip' ? stripPreview(route, s.home ?? undefined) : null),
    [mode, route, s.home, avoid],
  );
  const band = mode === 'strip' ? ((preview as StripPreview | null)?.band ?? []) : [];
  // Flights the route takes (ROUTE_FLIGHT_BUDGET_S each), as the server would split it.
  const flights = useMemo(() => (preview?.grid && route ? flightsNeeded(preview.grid, route, s.home) : null), [preview, route, s.home]);
  const surveyWps = useMemo(() => (preview?.grid && route ? gridWaypoints(preview.grid, route) : null), [preview, route]);
  // The survey's waypoints follow its area and settings (kept in the same store, without an undo step).
  const effective = useMemo(() => {
    if (!GENERATED.has(mode) || !route) return s;
    // Derived fields (estTime, first/last point, flight course) must follow the generated waypoints too.
    return derive({ ...s, routeItem: { ...route, waypoints: surveyWps ?? [] } });
  }, [s, mode, route, surveyWps]);

  // ---------------------------------------------------------------- validation
  const others: OtherFence[] = useMemo(
    () => fences.filter((f) => f.id !== s.fenceId).map((f) => ({ id: f.id, name: f.name, max_height: f.max_height, boundary: f.boundary, sn_id: f.sn_id })),
    [fences, s.fenceId],
  );
  const issues = useMemo(() => {
    const list = validate(mode, effective, others, s.fence, zones, noFly);
    if (GENERATED.has(mode) && preview?.issues.length) list.push(...preview.issues);
    return list;
  }, [mode, effective, others, s.fence, preview, zones, noFly]);
  const areaIssues = useMemo(() => {
    // The survey area (a strip route's centre line) must lie inside the fence: its vertices are checked as
    // waypoints of a route.
    if (!GENERATED.has(mode) || !route || !s.fence) return [];
    const corners = mode === 'strip' ? route.line : route.area;
    return validate('route', { ...s, routeItem: { ...route, waypoints: corners.map((p) => ({ ...p, height: route.default_height })) } }, [], s.fence).filter(
      (i) => AREA_CODES.has(i.code),
    );
  }, [mode, route, s]);
  const hl = useMemo(() => highlightsOf(issues), [issues]);
  const areaHl = useMemo(() => highlightsOf(areaIssues), [areaIssues]);
  const allIssues = [...issues, ...areaIssues];
  const nameMissing = mode === 'fence' ? !s.fence?.name.trim() || !s.fence?.sn_id : !route?.name.trim();
  const empty =
    mode === 'fence'
      ? (s.fence?.boundary.length ?? 0) < 3
      : mode === 'survey'
        ? (route?.area.length ?? 0) < 3
        : mode === 'strip'
          ? (route?.line.length ?? 0) < 2
          : (route?.waypoints.length ?? 0) === 0;
  const canSave = !loading && !saving && allIssues.length === 0 && !nameMissing && !empty && (mode === 'fence' || !!s.fenceId);

  // ---------------------------------------------------------------- map
  const points = store.points(target);
  const edit: PlanEdit | null = loading || (mode !== 'fence' && !s.fence)
    ? null
    : {
        points,
        closed: target !== 'waypoints' && target !== 'line',
        badPoints: mode === 'fence' ? hl.vertices : mode === 'route' ? hl.waypoints : areaHl.waypoints,
        badEdges: mode === 'route' ? hl.legs : undefined,
        selected,
        onAdd: (p) => {
          // Waypoints and survey corners go inside the chosen fence: a click outside it adds nothing and says why.
          if (mode !== 'fence' && s.fence && !prepareRing(s.fence.boundary).contains(p)) {
            setOutside((n) => n + 1);
            return;
          }
          setOutside(0);
          store.addPoint(target, p);
        },
        onMove: (i, p) => store.movePoint(target, i, p),
        onInsert: (i, p) => store.insertPoint(target, i, p),
        onRemove: (i) => {
          store.removePoint(target, i);
          setSelected(null);
        },
        onSelect: setSelected,
      };
  const shapes: PlanShape[] = [
    ...others.map((f) => ({ id: `fence-${f.id}`, kind: 'fence-other' as const, points: f.boundary })),
    ...(mode !== 'fence' && s.fence ? [{ id: 'fence', kind: 'fence' as const, points: s.fence.boundary }] : []),
    ...(band.length >= 3 ? [{ id: 'band', kind: 'area' as const, points: band }] : []),
    ...(GENERATED.has(mode) && preview?.grid ? [{ id: 'course', kind: 'transect' as const, points: preview.grid.waypoints }] : []),
  ];
  // Fit once per fence (a new fence being drawn never moves the map under the pointer). A new fence opens on
  // its device's nest, about a kilometre around it, until its first point is set: a fence is drawn where its
  // drone takes off, and a route far from its nest would spend its battery getting there.
  const newFenceNest = mode === 'fence' && !s.fenceId && s.fence && s.fence.boundary.length === 0 ? homeOf(devices, s.fence.sn_id) : null;
  const fitPoints = mode === 'fence' && !s.fenceId ? (newFenceNest ? aroundPoint(newFenceNest, NEST_VIEW_HALF_DEG) : undefined) : s.fence?.boundary;
  const fitKey = newFenceNest ? `nest-${s.fence?.sn_id ?? ''}` : s.fenceId ?? 'new';

  // ---------------------------------------------------------------- save
  const save = useCallback(async (split = false) => {
    setRefusal(null);
    setNeedsSplit(false);
    setSaving(true);
    try {
      if (mode === 'fence' && s.fence) {
        const fields = { name: s.fence.name.trim(), max_height: s.fence.max_height, boundary: s.fence.boundary, sn_id: s.fence.sn_id };
        if (s.fenceId) await call('fenceEdit', { id: s.fenceId, ...fields }, { quiet: true });
        else await call('fenceAdd', fields, { quiet: true });
        // The route list shows each route's fence name.
        void invalidateCall('fenceList', 'missionList');
      } else if (effective.routeItem && s.fenceId) {
        const { area, ...r } = effective.routeItem;
        const fields = {
          name: r.name.trim(), fence_id: s.fenceId, mission_type: r.mission_type, height_type: r.height_type, auto_speed: r.auto_speed,
          max_speed: r.max_speed, default_height: r.default_height, return_height: r.return_height, finish_action: r.finish_action,
          exec_type: r.exec_type, camera_type: r.camera_type, course_overlap: r.course_overlap, lateral_overlap: r.lateral_overlap,
          turn_distance: r.turn_distance, angle: r.angle, interval_height: r.interval_height, elevation: r.elevation, photo_type: r.photo_type,
          waypoints: r.waypoints,
          ...(mode === 'survey' && area && area.length >= 3 ? { polygon: area } : {}),
          ...(mode === 'strip' ? { line: r.line, corridor_width: r.corridor_width } : {}),
          ...(split ? { split: true } : {}),
          ...(r.camera_type === 'custom' && GENERATED.has(mode)
            ? { sensor_width: r.sensor_width, sensor_height: r.sensor_height, image_width: r.image_width, image_height: r.image_height, focal_length: r.focal_length }
            : {}),
        };
        if (id) await call('missionEdit', { id, ...fields }, { quiet: true });
        else await call('missionAdd', fields, { quiet: true });
        void invalidateCall('missionList');
      }
      notify().success(t('routeplan.saved'));
      void navigate('/routeplan');
    } catch (err) {
      setRefusal(err instanceof RequestError ? err.text : String(err));
      const first = err instanceof RequestError ? (err.data as { issues?: { code?: string }[] } | undefined)?.issues?.[0] : undefined;
      setNeedsSplit(first?.code === IssueCode.ROUTE_NEEDS_SPLIT);
    } finally {
      setSaving(false);
    }
  }, [mode, s, effective, id, navigate, t]);

  // ---------------------------------------------------------------- panels
  const wp = route && selected !== null && mode === 'route' ? route.waypoints[selected] : undefined;
  const setWp = (next: Waypoint) => selected !== null && store.setWaypoint(selected, next);
  const gsd = route ? gsdForHeight(route, route.default_height) : null;
  // Survey and strip routes: waypoints generated from an area or a corridor, with the same panel.
  const generated = GENERATED.has(mode);

  // `range`: the accepted range (contracts MISSION_LIMITS), shown as the placeholder; not enforced by the
  // input (a value outside is listed as an issue and the route is not saved).
  const num = (
    label: string,
    value: number | null | undefined,
    onChange: (v: number | null) => void,
    min?: number,
    max?: number,
    testId?: string,
    step?: number,
    range?: { min: number; max: number; unit: string },
  ) => (
    <label className="edit-field">
      <span>{label}</span>
      <InputNumber
        size="small"
        value={value ?? null}
        min={min}
        max={max}
        step={step}
        placeholder={range ? `${range.min}–${range.max} ${range.unit}` : undefined}
        status={range && value !== null && value !== undefined && !(value >= range.min && value <= range.max) ? 'error' : undefined}
        onChange={(v) => onChange(v === null ? null : Number(v))}
        data-testid={testId}
      />
    </label>
  );

  return (
    <div className="edit-work" data-testid="edit-work" data-mode={mode}>
      <div className="edit-work-bar">
        <Button size="small" icon={<ArrowLeftOutlined />} onClick={() => void navigate('/routeplan')}>
          {t('routeplan.back')}
        </Button>
        <h2>{t(`routeplan.mode.${mode}`)}</h2>
        <Space size={4}>
          <Tooltip title={t('routeplan.undo')}>
            <Button size="small" icon={<UndoOutlined />} disabled={!store.canUndo()} onClick={store.undo} aria-label={t('routeplan.undo')} data-testid="undo" />
          </Tooltip>
          <Tooltip title={t('routeplan.redo')}>
            <Button size="small" icon={<RedoOutlined />} disabled={!store.canRedo()} onClick={store.redo} aria-label={t('routeplan.redo')} data-testid="redo" />
          </Tooltip>
          <Button type="primary" size="small" icon={<SaveOutlined />} disabled={!canSave} loading={saving} onClick={() => void save()} data-testid="save">
            {t('common.save')}
          </Button>
        </Space>
      </div>
      <div className="edit-work-body">
        <div className="edit-work-map">
          <Suspense fallback={<Spin className="edit-work-spin" />}>
            <PlanMap theme={theme} shapes={shapes} edit={edit} fit={fitPoints} fitKey={fitKey} marks={hl.at} zones={zones} noFly={noFlyZones} />
          </Suspense>
          <div className="edit-work-hint">{t(`routeplan.hint.${mode}`)}</div>
          {outside > 0 && s.fence && (
            // One note, replaced (not stacked) by every further click outside; data-count tells them apart.
            <div className="edit-work-outside" role="status" data-testid="outside-fence" data-count={outside}>
              {t(`routeplan.outsideFence.${mode === 'survey' ? 'survey' : mode === 'strip' ? 'strip' : 'route'}`, { name: s.fence.name })}
            </div>
          )}
        </div>
        <aside className="edit-work-side">
          {loading ? (
            <Spin />
          ) : (
            <>
              {mode === 'fence' && s.fence && (
                <section>
                  <label className="edit-field">
                    <span>{t('routeplan.field.fenceName')}</span>
                    <Input size="small" value={s.fence.name} maxLength={64} onChange={(e) => store.setFence({ name: e.target.value })} data-testid="fence-name" />
                  </label>
                  {num(t('routeplan.field.maxHeight'), s.fence.max_height, (v) => store.setFence({ max_height: v ?? 0 }), 1, WAYPOINT_LIMITS.heightMax, 'fence-max-height')}
                  <label className="edit-field">
                    <span>{t('routeplan.field.device')}</span>
                    <Select size="small" value={s.fence.sn_id || undefined} placeholder={t('routeplan.field.devicePlaceholder')} onChange={(v: string) => store.setFence({ sn_id: v })}
                      options={devices.map((d) => ({ value: d.sn_id, label: `${d.name || d.sn_id} (${d.sn_id})` }))} data-testid="fence-device" />
                  </label>
                  <div className="edit-stat">{t('routeplan.stat.vertices', { n: s.fence.boundary.length })}</div>
                </section>
              )}
              {mode !== 'fence' && route && (
                <section>
                  <label className="edit-field">
                    <span>{t('routeplan.field.routeName')}</span>
                    <Input size="small" value={route.name} maxLength={64} onChange={(e) => store.setRoute({ name: e.target.value })} data-testid="route-name" />
                  </label>
                  <label className="edit-field">
                    <span>{t('routeplan.field.fence')}</span>
                    <Select size="small" value={s.fenceId ?? undefined} placeholder={t('routeplan.field.fencePlaceholder')} data-testid="route-fence"
                      options={fences.map((f) => ({ value: f.id, label: f.name }))}
                      onChange={(v: string) => {
                        const f = fences.find((x) => x.id === v);
                        store.update((st) => ({
                          ...st,
                          fenceId: v,
                          fence: f ? { name: f.name, max_height: f.max_height, boundary: f.boundary, sn_id: f.sn_id } : null,
                          home: homeOf(devices, f?.sn_id),
                        }));
                      }} />
                  </label>
                  <label className="edit-field">
                    <span>{t('routeplan.field.heightType')}</span>
                    <Select size="small" value={route.height_type} options={HeightType.options(lang)} onChange={(v: 0 | 1) => store.setRoute({ height_type: v })} />
                  </label>
                  {/* Route speeds and heights are not clamped: a value outside MISSION_LIMITS is an issue with the range. */}
                  {num(t('routeplan.field.autoSpeed'), route.auto_speed, (v) => store.setRoute({ auto_speed: v ?? 0 }), undefined, undefined, 'route-auto-speed', undefined, MISSION_LIMITS.auto_speed)}
                  {num(t('routeplan.field.maxSpeed'), route.max_speed, (v) => store.setRoute({ max_speed: v ?? 0 }), undefined, undefined, 'route-max-speed', undefined, MISSION_LIMITS.max_speed)}
                  {generated && gsd !== null
                    ? null
                    : num(t('routeplan.field.defaultHeight'), route.default_height, (v) => store.setRoute({ default_height: v ?? 0 }), undefined, undefined, 'route-default-height', undefined, MISSION_LIMITS.default_height)}
                  {num(t('routeplan.field.returnHeight'), route.return_height, (v) => store.setRoute({ return_height: v ?? 0 }), undefined, undefined, 'route-return-height', undefined, MISSION_LIMITS.return_height)}
                  <label className="edit-field">
                    <span>{t('routeplan.field.finishAction')}</span>
                    <Select size="small" value={route.finish_action} options={FinishAction.options(lang)} onChange={(v: 10 | 20 | 30 | 40) => store.setRoute({ finish_action: v })} />
                  </label>
                  <label className="edit-field">
                    <span>{t('routeplan.field.execType')}</span>
                    <Select size="small" value={route.exec_type} options={ExecutionType.options(lang)} onChange={(v: 0 | 1) => store.setRoute({ exec_type: v })} />
                  </label>
                </section>
              )}
              {generated && route && (
                <section data-testid="survey-panel">
                  <h3>{t(mode === 'strip' ? 'routeplan.survey.stripTitle' : 'routeplan.survey.title')}</h3>
                  {mode === 'strip' &&
                    num(t('routeplan.survey.width'), route.corridor_width, (v) => store.setRoute({ corridor_width: v ?? 0 }), 1, CORRIDOR_WIDTH_MAX_M, 'strip-width')}
                  <label className="edit-field">
                    <span>{t('routeplan.survey.camera')}</span>
                    <Select size="small" value={route.camera_type} options={CameraType.options(lang)} onChange={(v: 'custom' | '6k' | 'dual_light') => store.setRoute({ camera_type: v })} />
                  </label>
                  {route.camera_type === 'custom' && (
                    <>
                      {num(t('routeplan.survey.sensorWidth'), route.sensor_width, (v) => store.setRoute({ sensor_width: v }), 0.1, 100)}
                      {num(t('routeplan.survey.sensorHeight'), route.sensor_height, (v) => store.setRoute({ sensor_height: v }), 0.1, 100)}
                      {num(t('routeplan.survey.imageWidth'), route.image_width, (v) => store.setRoute({ image_width: v }), 1, 100_000)}
                      {num(t('routeplan.survey.imageHeight'), route.image_height, (v) => store.setRoute({ image_height: v }), 1, 100_000)}
                      {num(t('routeplan.survey.focalLength'), route.focal_length, (v) => store.setRoute({ focal_length: v }), 0.1, 1000)}
                    </>
                  )}
                  <label className="edit-field">
                    <span>{t('routeplan.survey.photoType')}</span>
                    <Select size="small" value={route.photo_type} options={PhotoType.options(lang)} onChange={(v: 1 | 2 | 3) => store.setRoute({ photo_type: v })} />
                  </label>
                  {num(t('routeplan.survey.height'), route.default_height, (v) => store.setRoute({ default_height: v ?? 0 }), undefined, undefined, 'survey-height', undefined, MISSION_LIMITS.default_height)}
                  {num(t('routeplan.survey.gsd'), gsd, (v) => {
                    const h = v === null ? null : heightForGsd(route, v);
                    if (h !== null) store.setRoute({ default_height: h });
                  }, 0.01, 100, 'survey-gsd', 0.1)}
                  {num(t('routeplan.survey.courseOverlap'), route.course_overlap, (v) => store.setRoute({ course_overlap: v ?? 0 }), 0, 99)}
                  {num(t('routeplan.survey.lateralOverlap'), route.lateral_overlap, (v) => store.setRoute({ lateral_overlap: v ?? 0 }), 0, 99)}
                  {mode === 'survey' && num(t('routeplan.survey.angle'), route.angle, (v) => store.setRoute({ angle: v ?? 0 }), 0, 360)}
                  {num(t('routeplan.survey.turnDistance'), route.turn_distance, (v) => store.setRoute({ turn_distance: v ?? 0 }), 0, 1000)}
                  <label className="edit-field">
                    <span>{t('routeplan.survey.elevation')}</span>
                    <Switch size="small" checked={route.elevation} onChange={(v) => store.setRoute({ elevation: v })} />
                  </label>
                  {/* interval_height: how far the flown height may stray from the height above ground before a
                      survey line gets another waypoint (0: the planner's 1 m); only used while following terrain. */}
                  {route.elevation && num(t('routeplan.survey.terrainTolerance'), route.interval_height, (v) => store.setRoute({ interval_height: v ?? 0 }), 0, 100, 'terrain-tolerance', 0.5)}
                  <dl className="edit-estimate" data-testid="survey-estimate">
                    <dt>{t('routeplan.stat.photos')}</dt>
                    <dd data-testid="est-photos">{preview?.grid ? preview.grid.photoCount : '--'}</dd>
                    <dt>{t('routeplan.stat.gsd')}</dt>
                    <dd>{preview?.grid ? `${preview.grid.gsd.toFixed(2)} cm/px` : '--'}</dd>
                    <dt>{t('routeplan.stat.length')}</dt>
                    <dd>{preview?.grid ? formatDistanceText(preview.grid.length) : '--'}</dd>
                    {mode === 'strip' ? (
                      <>
                        <dt>{t('routeplan.stat.lines')}</dt>
                        <dd data-testid="est-lines">{preview?.grid ? Math.max(1, Math.ceil(route.corridor_width / preview.grid.lineSpacing - 1e-9)) : '--'}</dd>
                      </>
                    ) : null}
                    <dt>{t('routeplan.stat.area')}</dt>
                    <dd>{preview?.grid ? formatAreaText(preview.grid.area) : '--'}</dd>
                    <dt>{t('routeplan.stat.time')}</dt>
                    <dd data-testid="est-time">{preview?.grid ? formatMmSs(effective.estTime) : '--'}</dd>
                    <dt>{t('routeplan.stat.flights')}</dt>
                    <dd data-testid="est-flights">{flights ?? '--'}</dd>
                  </dl>
                </section>
              )}
              {mode === 'route' && route && (
                <section>
                  <div className="edit-stat">
                    {t('routeplan.stat.waypoints', { n: route.waypoints.length })} · {formatDistanceText(routeDistance(effective.flightCourse))} ·{' '}
                    <span data-testid="est-time">{formatMmSs(effective.estTime)}</span>
                  </div>
                  {wp ? (
                    <div className="edit-waypoint" data-testid="waypoint-editor">
                      <h3>
                        {t('routeplan.wp.title', { n: (selected ?? 0) + 1 })}
                        <Button size="small" type="text" danger icon={<DeleteOutlined />} onClick={() => { store.removePoint('waypoints', selected!); setSelected(null); }} aria-label={t('routeplan.wp.delete')} />
                      </h3>
                      {num(t('routeplan.wp.height'), wp.height, (v) => setWp({ ...wp, height: v ?? 0 }), 0.1, WAYPOINT_LIMITS.heightMax)}
                      {num(t('routeplan.wp.speed'), wp.speed, (v) => setWp(withAction(wp, 'speed', v)), 0.1, WAYPOINT_LIMITS.speedMax)}
                      {num(t('routeplan.wp.hover'), wp.hover, (v) => setWp(withAction(wp, 'hover', v === null ? null : Math.round(v))), WAYPOINT_LIMITS.hoverMin, WAYPOINT_LIMITS.hoverMax)}
                      {num(t('routeplan.wp.yaw'), wp.uav_yaw, (v) => setWp(withAction(wp, 'uav_yaw', v)), WAYPOINT_LIMITS.yawMin, WAYPOINT_LIMITS.yawMax)}
                      {num(t('routeplan.wp.gimbalPitch'), wp.gimbal_ctrl?.pitch, (v) => setWp(withAction(wp, 'gimbal_ctrl', v === null ? null : { pitch: v, yaw: wp.gimbal_ctrl?.yaw ?? 0 })), WAYPOINT_LIMITS.gimbalMin, WAYPOINT_LIMITS.gimbalMax)}
                      {num(t('routeplan.wp.gimbalYaw'), wp.gimbal_ctrl?.yaw, (v) => setWp(withAction(wp, 'gimbal_ctrl', v === null ? null : { yaw: v, pitch: wp.gimbal_ctrl?.pitch ?? 0 })), WAYPOINT_LIMITS.gimbalMin, WAYPOINT_LIMITS.gimbalMax)}
                      <div className="edit-field">
                        <span>{t('routeplan.wp.photo')}</span>
                        <Space>
                          <Checkbox checked={wp.takephoto === 1} onChange={(e) => setWp(setPhotoKind(wp, 'photo', e.target.checked))}>{t('routeplan.wp.takePhoto')}</Checkbox>
                          <Checkbox checked={wp.takephoto === 2} onChange={(e) => setWp(setPhotoKind(wp, 'panorama', e.target.checked))}>{t('routeplan.wp.panorama')}</Checkbox>
                        </Space>
                      </div>
                      {num(t('routeplan.wp.trigger'), wp.cam_trig_dist, (v) => setWp(withAction(wp, 'cam_trig_dist', v)), 0, 10_000)}
                    </div>
                  ) : (
                    <div className="edit-stat">{t('routeplan.wp.none')}</div>
                  )}
                </section>
              )}
              <section className="edit-issues" data-testid="issues">
                <h3>{t('routeplan.issues.title')}</h3>
                {mode !== 'fence' && !s.fenceId && <div className="edit-issue">{t('routeplan.issues.chooseFence')}</div>}
                {nameMissing && <div className="edit-issue">{t(`routeplan.issues.nameMissing.${mode === 'fence' ? 'fence' : 'route'}`)}</div>}
                {/* The vertex-count rule once: the hint while nothing says it, else the validation line (with the count). */}
                {empty && !allIssues.some((i) => i.code === IssueCode.FENCE_POINTS_TOO_FEW) && <div className="edit-issue muted">{t(`routeplan.issues.empty.${mode}`)}</div>}
                {issueLineTexts(allIssues, lang).map((text) => (
                  <div key={text} className="edit-issue" data-testid="issue">
                    {text}
                  </div>
                ))}
                {preview?.error && <div className="edit-issue">{t('routeplan.issues.surveyFailed')}</div>}
                {!allIssues.length && !nameMissing && !empty && <div className="edit-ok">{t('routeplan.issues.none')}</div>}
                {refusal && <Alert type="error" showIcon title={t('routeplan.issues.refused')} description={refusal} data-testid="save-refusal" />}
                {needsSplit && (
                  <Button type="primary" size="small" loading={saving} onClick={() => void save(true)} data-testid="save-split">
                    {flights && flights > 1 ? t('routeplan.issues.split', { n: flights }) : t('routeplan.issues.splitUnknown')}
                  </Button>
                )}
              </section>
            </>
          )}
        </aside>
      </div>
    </div>
  );
}
