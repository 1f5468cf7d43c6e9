import { Suspense, lazy, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Button, Dropdown, Empty, Input, Pagination, Popconfirm, Select, Space, Spin, Tabs, Tag, Tooltip } from 'antd';
import { CopyOutlined, DeleteOutlined, DownloadOutlined, EditOutlined, PlusOutlined, StopOutlined, UploadOutlined } from '@ant-design/icons';
import { MissionType, NoFlyShape, formatDistanceText, formatMmSs, type DeviceListItem, type Fence, type Mission, type NoFlyZone, type Page, type Text } from '@nest/contracts';
import { EXPORT_FORMATS, checkAgainstTask, exportPlanFile, importPlanFile, type ExportFormat, type PlanDocument, type PlanNoFly } from '@nest/formats';
import { useI18n } from '../../shared/i18n';
import { call, RequestError } from '../../shared/request';
import { notify } from '../../shared/notify';
import { invalidateCall, useCall } from '../../shared/query';
import { useTheme } from '../../shared/theme';
import type { PlanShape } from '../../shared/map/PlanMap';
import { DEFAULT_ROUTE } from './editor/store';
import { noFlyRing, validateFence, validateRoute } from '@nest/geo';
import { useZones } from '../../shared/map/zones';
import { NO_FLY_COLORS, useNoFlyZones } from '../../shared/map/noFly';
import { NoFlyList } from './nofly/NoFlyList';
import { BLOCKED_COLOR, nowSeconds, routeConflict, zoneExists, zonesFor } from './nofly/conflicts';
import { saveBlob } from '../../shared/dialogs';
import './routeplan.css';

const PlanMap = lazy(() => import('../../shared/map/PlanMap'));

export const PAGE_SIZE = 10;
export const IMPORT_ACCEPT = '.kml,.json,.plan';
/** No routes (none read yet, or the read failed). */
const NO_MISSIONS: Page<Mission> = { list: [], total: 0 };
const NO_DEVICES: DeviceListItem[] = [];

/** Colours of a split survey's parts on the map, alternating part by part. */
const PART_COLORS = ['#1677ff', '#fa8c16'] as const;

/**
 * The route list with each split survey's parts together, in part order, where its first listed part is
 * (the server lists the newest first; a group's parts are saved at once).
 */
export function groupedRoutes(list: readonly Mission[]): Mission[] {
  const out: Mission[] = [];
  const seen = new Set<string>();
  for (const m of list) {
    if (!m.group_id) {
      out.push(m);
      continue;
    }
    if (seen.has(m.group_id)) continue;
    seen.add(m.group_id);
    out.push(...list.filter((x) => x.group_id === m.group_id).sort((a, b) => (a.group_index ?? 0) - (b.group_index ?? 0)));
  }
  return out;
}

/** The tabs of the list: routes, fences and the company's no-fly zones. */
type Tab = 'routes' | 'fences' | 'nofly';

/**
 * The neutral document of a route (with its fence) or of a fence, for the exporters, with the company
 * no-fly zones given (those restricting it, or the one zone exported): QGC exclusion areas, KML and GeoJSON
 * zones (DJI routes have no place for them and the exporter says so).
 */
export function documentOf(mission: Mission | null, fence: Fence | null, noFly: readonly NoFlyZone[] = []): PlanDocument {
  return {
    name: mission?.name ?? fence?.name ?? noFly[0]?.name,
    noFlyZones: noFly.map((z) => ({ name: z.name, reason: z.reason, shape: z.shape, boundary: z.boundary, center: z.center, radius: z.radius })),
    fences: fence ? [{ name: fence.name, boundary: fence.boundary, max_height: fence.max_height }] : [],
    routes: mission
      ? [{
          name: mission.name,
          mission_type: mission.mission_type,
          height_type: mission.height_type,
          waypoints: mission.waypoints,
          settings: { auto_speed: mission.auto_speed, max_speed: mission.max_speed, default_height: mission.default_height, return_height: mission.return_height, finish_action: mission.finish_action },
        }]
      : [],
    // A survey also travels as its area and settings, so importing it gives the same survey back.
    surveys:
      mission && mission.mission_type === MissionType.SURVEY && mission.survey_polygon
        ? [{
            name: mission.name,
            polygon: mission.survey_polygon,
            params: {
              angle: mission.angle, course_overlap: mission.course_overlap, lateral_overlap: mission.lateral_overlap,
              turn_distance: mission.turn_distance, default_height: mission.default_height, height_type: mission.height_type,
              auto_speed: mission.auto_speed, finish_action: mission.finish_action, camera_type: mission.camera_type,
              sensor_width: mission.sensor_width, sensor_height: mission.sensor_height, image_width: mission.image_width,
              image_height: mission.image_height, focal_length: mission.focal_length, elevation: mission.elevation,
            },
          }]
        : [],
  };
}

export default function RoutePlanPage(): ReactNode {
  const { t, lang } = useI18n();
  const theme = useTheme();
  const navigate = useNavigate();
  const zones = useZones();
  const noFly = useNoFlyZones();
  // The tab may be named in the url (the no-fly zone editor returns to its tab).
  const [params] = useSearchParams();
  const [tab, setTab] = useState<Tab>(() => (params.get('tab') === 'nofly' ? 'nofly' : params.get('tab') === 'fences' ? 'fences' : 'routes'));
  const [search, setSearch] = useState('');
  const [type, setType] = useState<number | null>(null);
  const [page, setPage] = useState(0);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const [importNotes, setImportNotes] = useState<readonly Text[]>([]);
  // The server's refusal of a delete, shown as it words it.
  const [refusal, setRefusal] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  // The routes of the page and every fence; the previous answers stay on screen while the next are read.
  const missionPage = useCall(
    'missionList',
    { page, size: PAGE_SIZE, ...(search ? { search } : {}), ...(type ? { mission_type: type } : {}) },
    { keepPrevious: true },
  );
  const fenceList = useCall('fenceList', { page: 0, size: 1000 });
  const deviceList = useCall('deviceList', { type: 0, page: 0, size: 200 }, { quiet: true });
  const devices = deviceList.data?.list ?? NO_DEVICES;
  const deviceNames = useMemo(() => new Map(devices.map((d) => [d.sn_id, d.name || d.sn_id])), [devices]);
  const missions = missionPage.data ?? NO_MISSIONS;
  const fences = useMemo(() => fenceList.data?.list ?? [], [fenceList.data]);
  const loading = missionPage.isFetching || fenceList.isFetching;

  const fenceById = useMemo(() => new Map(fences.map((f) => [f.id, f])), [fences]);
  const mission = tab === 'routes' ? missions.list.find((m) => m.id === selectedId) ?? null : null;
  const fence = tab === 'fences' ? fences.find((f) => f.id === selectedId) ?? null : mission ? fenceById.get(mission.fence_id) ?? null : null;
  const shownFences = tab === 'fences' ? fences.filter((f) => !search || f.name.includes(search)) : [];
  const shownNoFly = tab === 'nofly' ? noFly.filter((z) => !search || z.name.includes(search)) : [];
  const zone = tab === 'nofly' ? noFly.find((z) => z.id === selectedId) ?? null : null;
  // The statuses and conflicts are given for the time of this render (the lists are read again after changes).
  const now = nowSeconds();
  // Each listed route's first conflict with the no-fly zones restricting its device now: the route is red.
  const conflicts = useMemo(() => {
    const at = nowSeconds();
    return new Map(missions.list.map((m) => [m.id, routeConflict(m.waypoints, fenceById.get(m.fence_id) ?? null, noFly, at)]));
  }, [missions.list, fenceById, noFly]);
  const conflict = mission ? (conflicts.get(mission.id) ?? null) : null;

  const shapes: PlanShape[] = [
    ...(tab === 'fences' ? fences.filter((f) => f.id !== fence?.id).map((f) => ({ id: `f-${f.id}`, kind: 'fence-other' as const, points: f.boundary })) : []),
    ...(fence ? [{ id: 'fence', kind: 'fence' as const, points: fence.boundary }] : []),
    // A split survey's part: every listed part of its group, in alternating colours, the selected one on top.
    ...(mission?.group_id
      ? missions.list
          .filter((m) => m.group_id === mission.group_id && m.id !== mission.id)
          .map((m) => ({ id: `part-${m.id}`, kind: 'transect' as const, points: m.waypoints, color: PART_COLORS[(m.group_index ?? 1) % 2] }))
      : []),
    ...(mission
      ? [{ id: 'route', kind: 'route' as const, points: mission.waypoints, ...(conflict ? { color: BLOCKED_COLOR } : mission.group_id ? { color: PART_COLORS[(mission.group_index ?? 1) % 2] } : {}) }]
      : []),
    // The selected zone outlined in its own colour over the overlay's drawing (dashed while it does not restrict).
    ...(zone ? [{ id: 'nofly', kind: zone.active ? ('fence' as const) : ('fence-other' as const), points: noFlyRing(zone), color: NO_FLY_COLORS.stroke }] : []),
  ];
  const fit =
    tab === 'nofly'
      ? zone ? noFlyRing(zone) : noFly.flatMap((z) => noFlyRing(z))
      : mission?.waypoints.length ? [...mission.waypoints, ...(fence?.boundary ?? [])] : fence?.boundary ?? fences.flatMap((f) => f.boundary);

  const open = (mode: 'fence' | 'route' | 'survey' | 'strip' | 'nofly', id?: string) => void navigate(`/editWork?mode=${mode}${id ? `&id=${encodeURIComponent(id)}` : ''}`);
  // A new no-fly zone drawn by a route (the editor opens on it).
  const noFlyNear = (m: Mission) => void navigate(`/editWork?mode=nofly&near=${encodeURIComponent(m.id)}`);
  const missionFields = (m: Mission) => {
    const {
      id: _id, f_title: _f, distance: _d, est_time: _e, user_name: _u, create_time: _c, modified_time: _mt, survey_polygon, corridor_line,
      group_id: _g, group_index: _gi, group_count: _gc, group_next: _gn, ...settings
    } = m;
    return { ...settings, ...(survey_polygon ? { polygon: survey_polygon } : {}), ...(corridor_line ? { line: corridor_line } : {}) };
  };

  const remove = async (m: Mission) => {
    // The registry's edit call carries the record state (20 deleted) as for other records.
    await call('missionEdit', { id: m.id, ...missionFields(m), state: 20 });
    notify().success(t('routeplan.list.deleted'));
    setSelectedId(null);
    void invalidateCall('missionList');
  };
  // Deleting a fence or a no-fly zone: the server may refuse (a fence used by a route or a timed task) and
  // says why; the refusal is shown above the list as it is worded.
  const removeOther = async (what: 'fence' | 'nofly', id: string) => {
    setRefusal(null);
    try {
      if (what === 'fence') await call('fenceDelete', { id }, { quiet: true });
      else await call('noFlyDelete', { id }, { quiet: true });
    } catch (err) {
      return setRefusal(err instanceof RequestError ? err.text : String(err));
    }
    notify().success(t('routeplan.list.deleted'));
    setSelectedId(null);
    void invalidateCall(what === 'fence' ? 'fenceList' : 'noFlyList');
  };
  const copy = async (m: Mission) => {
    await call('missionAdd', { ...missionFields(m), name: `${m.name}${t('routeplan.list.copySuffix')}`.slice(0, 64) });
    notify().success(t('routeplan.list.copied'));
    void invalidateCall('missionList');
  };
  const exportAs = (format: ExportFormat) => {
    // A route or fence travels with the no-fly zones restricting its device now; a zone alone, by itself.
    const zonesOut = zone ? [zone] : fence ? zonesFor(noFly, fence, nowSeconds()) : [];
    const r = exportPlanFile(documentOf(mission, zone ? null : fence, zonesOut), format);
    if (!r.ok) return notify().error(r.error[lang]);
    r.warnings.forEach((w) => notify().warning(w[lang]));
    saveBlob(`${mission?.name ?? zone?.name ?? fence?.name ?? 'plan'}${r.ext}`, new Blob([r.bytes as BlobPart], { type: r.mime }));
  };

  // ---------------------------------------------------------------- import
  // The no-fly zones of an imported file, created after the operator confirms the list.
  const importNoFly = (zonesInFile: readonly PlanNoFly[], fallbackName: string) =>
    new Promise<void>((done) => {
      notify().confirm({
        title: t('routeplan.nofly.importTitle'),
        content: (
          <div data-testid="import-nofly">
            <p>{t('routeplan.nofly.importList', { n: zonesInFile.length })}</p>
            <ul>
              {zonesInFile.map((z, i) => (
                <li key={i}>
                  {z.name || fallbackName} · {NoFlyShape.label(z.shape, lang)}
                  {z.radius ? ` · ${formatDistanceText(z.radius)}` : ''}
                </li>
              ))}
            </ul>
          </div>
        ),
        okText: t('common.ok'),
        cancelText: t('common.cancel'),
        onCancel: () => done(),
        onOk: async () => {
          let created = 0;
          try {
            for (const z of zonesInFile) {
              const circle = z.shape === NoFlyShape.CIRCLE;
              await call('noFlyAdd', {
                name: (z.name || fallbackName).slice(0, 64),
                reason: (z.reason ?? '').slice(0, 500),
                shape: z.shape,
                ...(circle ? { center: z.center!, radius: z.radius! } : { boundary: z.boundary }),
              }, { quiet: true });
              created++;
            }
          } catch (err) {
            setImportError(err instanceof RequestError ? err.text : String(err));
          }
          if (created > 0) {
            notify().success(t('routeplan.nofly.imported', { n: created }));
            void invalidateCall('noFlyList');
          }
          done();
        },
      });
    });

  const onImport = async (file: File) => {
    setImportError(null);
    setImportNotes([]);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const imported = importPlanFile(file.name, bytes, { extensions: ['.kml', '.json', '.plan'] });
    if (!imported.ok) return setImportError(imported.error[lang]);
    const doc = imported.doc;
    // What the reader did with items it could not take as they are (by item number), shown with the result.
    setImportNotes(imported.warnings);
    // Zones the company has already (a re-imported export) are not created again.
    const zonesInFile = (doc.noFlyZones ?? []).filter((z) => !zoneExists(z, noFly));
    if (zonesInFile.length > 0) await importNoFly(zonesInFile, file.name);
    // A file of no-fly zones only has nothing more to import.
    if (!doc.routes.length && !doc.surveys.length && !doc.fences.length) {
      if (!zonesInFile.length && doc.noFlyZones?.length) notify().info(t('routeplan.nofly.importKnown'));
      return;
    }
    try {
      if (tab === 'fences' || (!doc.routes.length && !doc.surveys.length)) {
        const c = checkAgainstTask(doc, 'fence');
        if (!c.ok) return setImportError(c.error[lang]);
        const sn = fence?.sn_id ?? fences[0]?.sn_id;
        if (!sn) return setImportError(t('routeplan.import.noDevice'));
        const input = { name: c.item.name || file.name, max_height: c.item.max_height ?? 120, boundary: c.item.boundary, sn_id: sn };
        const issues = validateFence(input, fences.map((f) => ({ ...f })));
        if (issues.length) return setImportError(issues.map((i) => i.text[lang]).join('; '));
        await call('fenceAdd', input, { quiet: true });
        void invalidateCall('fenceList');
      } else if (doc.surveys.length) {
        const c = checkAgainstTask(doc, 'survey');
        if (!c.ok) return setImportError(c.error[lang]);
        const target = fence ?? fences[0] ?? null;
        if (!target) return setImportError(t('routeplan.import.chooseFence'));
        const { camera_name: _name, ...known } = c.item.params ?? {};
        const params = Object.fromEntries(Object.entries(known).filter(([, v]) => v !== null && v !== undefined));
        // The editor's drawing-only fields (area, strip line and width) are not sent: the area travels as `polygon`.
        const { area: _a, line: _l, corridor_width: _w, ...settings } = { ...DEFAULT_ROUTE, ...params, mission_type: MissionType.SURVEY };
        const fields = { ...settings, name: (c.item.name || file.name).slice(0, 64), fence_id: target.id, waypoints: [], polygon: c.item.polygon };
        // The server validates the area against the fence and regenerates the grid; its refusal is shown as is.
        await call('missionAdd', fields, { quiet: true });
        void invalidateCall('missionList');
      } else {
        const c = checkAgainstTask(doc, 'waypoint');
        if (!c.ok) return setImportError(c.error[lang]);
        const target = fence ?? (doc.fences[0] ? null : fences[0] ?? null);
        if (!target) return setImportError(t('routeplan.import.chooseFence'));
        const route = { ...DEFAULT_ROUTE, ...(c.item.settings ?? {}), mission_type: MissionType.WAYPOINT, height_type: c.item.height_type, waypoints: c.item.waypoints };
        const issues = validateRoute(route, target, { zones });
        if (issues.length) return setImportError(issues.map((i) => i.text[lang]).filter((x, i, a) => a.indexOf(x) === i).join('; '));
        const { area: _a, line: _l, corridor_width: _w, ...fields } = route;
        await call('missionAdd', { ...fields, name: (c.item.name || file.name).slice(0, 64), fence_id: target.id }, { quiet: true });
        void invalidateCall('missionList');
      }
      notify().success(t('routeplan.import.done'));
    } catch (err) {
      setImportError(err instanceof RequestError ? err.text : String(err));
    }
  };

  const selected = tab === 'routes' ? mission : tab === 'fences' ? fence : zone;
  return (
    <div className="routeplan" data-testid="routeplan">
      <aside className="routeplan-side">
        <Tabs size="small" activeKey={tab} onChange={(k) => { setTab(k as Tab); setSelectedId(null); setPage(0); setRefusal(null); }}
          items={[
            { key: 'routes', label: t('routeplan.list.routes') },
            { key: 'fences', label: t('routeplan.list.fences') },
            { key: 'nofly', label: <span data-testid="tab-nofly">{t('routeplan.list.nofly')}</span> },
          ]} />
        <Space.Compact className="routeplan-filter">
          <Input.Search size="small" allowClear placeholder={t('routeplan.list.search')} onSearch={(v) => { setSearch(v.trim()); setPage(0); }} data-testid="plan-search" />
          {tab === 'routes' && (
            <Select size="small" allowClear placeholder={t('routeplan.list.type')} value={type ?? undefined} onChange={(v?: number) => { setType(v ?? null); setPage(0); }}
              options={MissionType.options(lang)} className="routeplan-type" />
          )}
        </Space.Compact>
        <div className="routeplan-actions">
          {tab === 'nofly' ? (
            <Button size="small" icon={<PlusOutlined />} onClick={() => open('nofly')} data-testid="new-nofly">{t('routeplan.list.newNoFly')}</Button>
          ) : (
            <>
              <Button size="small" icon={<PlusOutlined />} onClick={() => open('fence')} data-testid="new-fence">{t('routeplan.list.newFence')}</Button>
              <Button size="small" icon={<PlusOutlined />} onClick={() => open('route')} data-testid="new-route">{t('routeplan.list.newRoute')}</Button>
              <Button size="small" icon={<PlusOutlined />} onClick={() => open('survey')} data-testid="new-survey">{t('routeplan.list.newSurvey')}</Button>
              <Button size="small" icon={<PlusOutlined />} onClick={() => open('strip')} data-testid="new-strip">{t('routeplan.list.newStrip')}</Button>
            </>
          )}
          <Tooltip title={t('routeplan.import.tip')}>
            <Button size="small" icon={<UploadOutlined />} onClick={() => fileInput.current?.click()} data-testid="import">{t('routeplan.list.import')}</Button>
          </Tooltip>
          <input ref={fileInput} type="file" accept={IMPORT_ACCEPT} hidden data-testid="import-file"
            onChange={(e) => { const f = e.target.files?.[0]; e.target.value = ''; if (f) void onImport(f); }} />
        </div>
        {importError && <div className="routeplan-error" role="alert" data-testid="import-error">{importError}</div>}
        {importNotes.length > 0 && (
          <Alert type="info" showIcon closable onClose={() => setImportNotes([])} title={t('routeplan.nofly.notesTitle')} data-testid="import-notes"
            description={<ul className="routeplan-notes">{importNotes.map((n, i) => <li key={i}>{n[lang]}</li>)}</ul>} />
        )}
        {refusal && <div className="routeplan-error" role="alert" data-testid="action-error">{t('routeplan.list.refused')}: {refusal}</div>}
        <Spin spinning={loading}>
          <ul className="routeplan-list" data-testid="plan-list">
            {tab === 'routes'
              ? groupedRoutes(missions.list).map((m) => {
                  const blocked = conflicts.get(m.id) ?? null;
                  const part = m.group_id && m.group_index && m.group_count ? { i: m.group_index, n: m.group_count } : null;
                  return (
                    <li key={m.id} className={`${m.id === selectedId ? 'active' : ''}${blocked ? ' is-blocked' : ''}${part ? ' is-part' : ''}`} onClick={() => setSelectedId(m.id)}
                      data-testid="plan-item" data-id={m.id} data-name={m.name} data-blocked={blocked ? '1' : '0'} data-group={m.group_id ?? undefined}>
                      <div className="routeplan-item-title">{m.name}</div>
                      {part && (
                        <div className="routeplan-item-part" data-testid="route-part">
                          {t('routeplan.list.part', { i: part.i, n: part.n, time: formatMmSs(m.est_time) })}
                          {m.group_next === m.id && <Tag color="blue" className="routeplan-next" data-testid="route-next">{t('routeplan.list.next')}</Tag>}
                        </div>
                      )}
                      <div className="routeplan-item-meta">
                        {MissionType.label(m.mission_type, lang)} · {m.f_title || fenceById.get(m.fence_id)?.name || '--'} · {formatDistanceText(m.distance)} · {formatMmSs(m.est_time)}
                      </div>
                      {blocked && (
                        <Tooltip title={blocked.text[lang]}>
                          <Tag color="red" className="routeplan-blocked" data-testid="route-blocked">{blocked.text[lang]}</Tag>
                        </Tooltip>
                      )}
                    </li>
                  );
                })
              : tab === 'nofly'
              ? <NoFlyList zones={shownNoFly} selectedId={selectedId} onSelect={setSelectedId} deviceNames={deviceNames} now={now} />
              : shownFences.map((f) => (
                  <li key={f.id} className={f.id === selectedId ? 'active' : ''} onClick={() => setSelectedId(f.id)} data-testid="fence-item" data-name={f.name}>
                    <div className="routeplan-item-title">{f.name}</div>
                    <div className="routeplan-item-meta">{f.sn_id} · {t('routeplan.list.maxHeight', { h: f.max_height })}</div>
                  </li>
                ))}
            {!loading && (tab === 'routes' ? missions.list.length === 0 : tab === 'nofly' ? shownNoFly.length === 0 : shownFences.length === 0) && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('routeplan.list.empty')} />}
          </ul>
        </Spin>
        {tab === 'routes' && missions.total > PAGE_SIZE && (
          <Pagination size="small" simple current={page + 1} pageSize={PAGE_SIZE} total={missions.total} onChange={(p) => setPage(p - 1)} />
        )}
      </aside>
      <main className="routeplan-map">
        <Suspense fallback={<Spin />}>
          <PlanMap theme={theme} shapes={shapes} edit={null} fit={fit} fitKey={selectedId ?? `${tab}-${tab === 'nofly' ? noFly.length : fences.length}`} zones={zones} noFly={noFly} />
        </Suspense>
        {selected && (
          <div className="routeplan-toolbar" data-testid="plan-toolbar">
            <strong>{selected.name}</strong>
            <Button size="small" icon={<EditOutlined />} data-testid="edit-selected"
              onClick={() => (mission ? open(mission.mission_type === MissionType.SURVEY ? 'survey' : mission.mission_type === MissionType.STRIP ? 'strip' : 'route', mission.id) : zone ? open('nofly', zone.id) : fence && open('fence', fence.id))}>
              {t('routeplan.list.edit')}
            </Button>
            {mission && <Button size="small" icon={<CopyOutlined />} onClick={() => void copy(mission)}>{t('routeplan.list.copy')}</Button>}
            {mission && <Button size="small" icon={<StopOutlined />} onClick={() => noFlyNear(mission)} data-testid="nofly-here">{t('routeplan.list.noFlyHere')}</Button>}
            <Dropdown menu={{ items: EXPORT_FORMATS.map((f) => ({ key: f, label: <span data-testid={`export-${f}`}>{t(`routeplan.export.${f}`)}</span> })), onClick: ({ key }) => exportAs(key as ExportFormat) }}>
              <Button size="small" icon={<DownloadOutlined />} data-testid="export">{t('routeplan.list.export')}</Button>
            </Dropdown>
            {mission && (
              <Popconfirm title={t('routeplan.list.confirmDelete')} onConfirm={() => void remove(mission)} okText={t('common.ok')} cancelText={t('common.cancel')}>
                <Button size="small" danger icon={<DeleteOutlined />}>{t('routeplan.list.delete')}</Button>
              </Popconfirm>
            )}
            {!mission && (
              <Popconfirm title={t(zone ? 'routeplan.list.confirmDeleteNoFly' : 'routeplan.list.confirmDeleteFence')} okText={t('common.ok')} cancelText={t('common.cancel')}
                onConfirm={() => void (zone ? removeOther('nofly', zone.id) : fence && removeOther('fence', fence.id))}>
                <Button size="small" danger icon={<DeleteOutlined />} data-testid="delete-selected">{t('routeplan.list.delete')}</Button>
              </Popconfirm>
            )}
          </div>
        )}
        {conflict && (
          <div className="routeplan-conflict" role="alert" data-testid="route-conflict">
            <strong>{t('routeplan.nofly.blocked')}</strong>
            <span>{conflict.text[lang]}</span>
          </div>
        )}
      </main>
    </div>
  );
}
