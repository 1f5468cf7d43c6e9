import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Empty, Input, InputNumber, Popconfirm, Progress, Slider, Table, Tag, Tooltip } from 'antd';
import { BorderOutlined, CloseOutlined, EyeOutlined, FullscreenOutlined, ReloadOutlined, StopOutlined } from '@ant-design/icons';
import { keepPreviousData, skipToken, useQuery } from '@tanstack/react-query';
import type { GeoJSONSource, MapMouseEvent } from 'maplibre-gl';
import {
  MAP_DOWNLOAD_MAX_TILES,
  MAP_DOWNLOAD_MAX_ZOOM,
  MAP_DOWNLOAD_MIN_ZOOM,
  PushMsgId,
  calls,
  holds,
  isActiveDownload,
  mapDownloadPush,
  type LatLngBox,
  type MapDownload,
} from '@nest/contracts';
import { AdminPage } from '../../shared/admin';
import { useI18n } from '../../shared/i18n';
import { BasemapNotice } from '../../shared/map/BasemapNotice';
import { BasemapSwitch } from '../../shared/map/BasemapSwitch';
import { fromMap, toMap, type BasemapId } from '../../shared/map/basemaps';
import { useConsoleMap, useSavedBasemap } from '../../shared/map/useConsoleMap';
import { useNoFlyZones } from '../../shared/map/noFly';
import { ZoneLegend, useZoneOverlay } from '../../shared/map/zoneOverlay';
import { useZones } from '../../shared/map/zones';
import { notify } from '../../shared/notify';
import { onPush } from '../../shared/push';
import { callKey, invalidateCall, queryClient } from '../../shared/query';
import { call } from '../../shared/request';
import { useUser } from '../../shared/session';
import { useTheme } from '../../shared/theme';
import { EMPTY_BOX, boxOfCorners, boxRing, estimate, formatBox, formatCount, mergeJob, progressPercent, validBox, type BoxDraft } from './area';
import { actionsColumn, timeColumn } from './columns';
import { PackagesSection } from './PackagesSection';
import './outLineMap.css';

const AREA_SOURCE = 'download-area';
/** While a job is unfinished the list is read again this often (jobs of other users, other instances). */
const ACTIVE_REFRESH_MS = 5_000;
const PAGE_SIZE = 10;
/** A city and its surroundings: the scale at which areas are usually chosen (the console's default is street level). */
const CHOOSING_ZOOM = 8;

const STATE_COLORS: Record<string, string> = { waiting: 'default', running: 'processing', done: 'success', failed: 'error', cancelled: 'warning' };

/** No jobs (none read yet, or the read failed), the same list on every render. */
const NO_JOBS: MapDownload[] = [];
const jobFields = (page: number) => ({ page, size: PAGE_SIZE });

/**
 * One page of download jobs, read through the query cache, and read again every few seconds while `poll`.
 * The first read of a page and `refresh()` (the refresh button) show a failure and set `refreshing`; the other
 * reads (the poll, after a start or a failed cancel) are quiet. Without `canList` nothing is read.
 */
function useJobList(page: number, canList: boolean, poll: boolean) {
  // Set by refresh(): the next read shows its failure although the page has an answer.
  const shownNext = useRef(false);
  const [refreshing, setRefreshing] = useState(false);
  const query = useQuery(
    {
      queryKey: callKey('mapDownList', jobFields(page)),
      queryFn: canList
        ? ({ client, queryKey }) => {
            const quiet = client.getQueryData(queryKey) !== undefined && !shownNext.current;
            shownNext.current = false;
            return call('mapDownList', jobFields(page), { quiet });
          }
        : skipToken,
      placeholderData: keepPreviousData,
      refetchInterval: poll ? ACTIVE_REFRESH_MS : false,
    },
    queryClient,
  );
  const { refetch } = query;
  const refresh = useCallback(async () => {
    if (!canList) return;
    shownNext.current = true;
    setRefreshing(true);
    try {
      await refetch();
    } finally {
      setRefreshing(false);
    }
  }, [canList, refetch]);
  const { data, dataUpdatedAt, isPending, isPlaceholderData, isError } = query;
  return { data, dataUpdatedAt, isPending, isPlaceholderData, isError, refreshing, refresh };
}

function areaGeoJson(box: LatLngBox | null, basemap: BasemapId): GeoJSON.FeatureCollection {
  if (!box) return { type: 'FeatureCollection', features: [] };
  return {
    type: 'FeatureCollection',
    features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [boxRing(box, (p) => toMap(basemap, p))] } }],
  };
}

/**
 * Offline map downloads (menu outLineMap): choose an area (drawn on the map, from the current view, or
 * typed) and a zoom range, see the tile count before starting (/map/down), follow the jobs (/map/downList,
 * live by push 391, re-read every few seconds while one is unfinished), cancel one (/map/downCancel), and
 * see a finished area on the offline basemap with its box outlined; below, the company's offline map
 * packages (PackagesSection), one of which can become the basemap of every map.
 */
export default function OutLineMapPage(): ReactNode {
  const { t, lang } = useI18n();
  const theme = useTheme();
  const user = useUser();
  const canStart = holds(user?.fun_list, calls.mapDown.access);
  const canList = holds(user?.fun_list, calls.mapDownList.access);
  const canCancel = holds(user?.fun_list, calls.mapDownCancel.access);

  const [chosenBasemap, setChosenBasemap] = useSavedBasemap();
  /** The job whose area is shown on the offline basemap, null while choosing. */
  const [viewing, setViewing] = useState<MapDownload | null>(null);
  const basemap: BasemapId = viewing ? 'offline' : chosenBasemap;
  const basemapRef = useRef(basemap);
  basemapRef.current = basemap;
  const zones = useZones();
  const noFly = useNoFlyZones();

  const [name, setName] = useState('');
  const [draft, setDraft] = useState<BoxDraft>(EMPTY_BOX);
  const [zooms, setZooms] = useState<[number, number]>([MAP_DOWNLOAD_MIN_ZOOM, MAP_DOWNLOAD_MAX_ZOOM]);
  const [drawing, setDrawing] = useState(false);
  const [starting, setStarting] = useState(false);

  const box = useMemo(() => validBox(draft), [draft]);
  const est = useMemo(() => estimate(box, zooms[0], zooms[1]), [box, zooms]);
  const shownBox: LatLngBox | null = viewing ?? box;

  // ---------------------------------------------------------------- the map
  const { container, mapRef, ready, failed: mapFailed } = useConsoleMap({
    basemap,
    theme,
    options: { zoom: CHOOSING_ZOOM },
    onStyle: (map) => {
      if (!map.getSource(AREA_SOURCE)) {
        map.addSource(AREA_SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
        map.addLayer({ id: 'download-area-fill', type: 'fill', source: AREA_SOURCE, paint: { 'fill-color': '#22e3ff', 'fill-opacity': 0.12 } });
        map.addLayer({ id: 'download-area-line', type: 'line', source: AREA_SOURCE, paint: { 'line-color': '#22e3ff', 'line-width': 2, 'line-dasharray': [3, 2] } });
      }
    },
  });

  // The public and company no-fly zones under the area being chosen; their names show under the pointer, so
  // fixed labels do not hide the rectangle being drawn.
  useZoneOverlay(ready ? mapRef.current : null, zones, basemap, lang, 'download-area-fill', 'hover', noFly);

  useEffect(() => {
    void mapRef.current?.getSource<GeoJSONSource>(AREA_SOURCE)?.setData(areaGeoJson(shownBox, basemap));
  }, [shownBox, basemap, ready, mapRef]);

  // A job being viewed: zoom to its box on the offline basemap.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !viewing) return;
    const sw = toMap('offline', { lat: viewing.min_lat, lng: viewing.min_lng });
    const ne = toMap('offline', { lat: viewing.max_lat, lng: viewing.max_lng });
    map.fitBounds([sw, ne], { padding: 60, maxZoom: Math.max(viewing.max_zoom, 3), duration: 0 });
  }, [viewing, mapRef]);

  // ---------------------------------------------------------------- drawing a rectangle
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !drawing) return;
    let start: { lat: number; lng: number } | null = null;
    const at = (e: MapMouseEvent) => fromMap(basemapRef.current, e.lngLat.lng, e.lngLat.lat);
    const down = (e: MapMouseEvent) => {
      e.preventDefault();
      start = at(e);
    };
    const move = (e: MapMouseEvent) => {
      if (!start) return;
      void map.getSource<GeoJSONSource>(AREA_SOURCE)?.setData(areaGeoJson(boxOfCorners(start, at(e)), basemapRef.current));
    };
    const up = (e: MapMouseEvent) => {
      if (!start) return;
      const b = boxOfCorners(start, at(e));
      start = null;
      setDrawing(false);
      if (b.min_lat < b.max_lat && b.min_lng < b.max_lng) setDraft(b);
    };
    map.dragPan.disable();
    map.getCanvas().style.cursor = 'crosshair';
    const subscriptions = [map.on('mousedown', down), map.on('mousemove', move), map.on('mouseup', up)];
    return () => {
      for (const s of subscriptions) s.unsubscribe();
      map.dragPan.enable();
      map.getCanvas().style.cursor = '';
    };
  }, [drawing, mapRef]);

  const fromView = () => {
    const map = mapRef.current;
    if (!map) return;
    const b = map.getBounds();
    setDraft(boxOfCorners(fromMap(basemap, b.getWest(), b.getSouth()), fromMap(basemap, b.getEast(), b.getNorth())));
  };

  // ---------------------------------------------------------------- jobs
  const [page, setPage] = useState(0);
  // The jobs on screen: the last answer (the previous page's while another is first read), with the changes
  // pushed (391) or answered by a cancel since; each new answer replaces them.
  const [live, setLive] = useState<{ at: number; jobs: MapDownload[]; total: number }>({ at: 0, jobs: NO_JOBS, total: 0 });
  const { jobs, total } = live;
  const anyActive = jobs.some((j) => isActiveDownload(j.state));
  const jobList = useJobList(page, canList, anyActive);
  if (jobList.dataUpdatedAt !== live.at) setLive({ at: jobList.dataUpdatedAt, jobs: jobList.data?.list ?? NO_JOBS, total: jobList.data?.total ?? 0 });
  const failed = jobList.isError;
  // The spinner shows while a page is first read and on a refresh, not on the quiet reads of the poll or after a change.
  const loading = canList && (jobList.isPending || jobList.isPlaceholderData || jobList.refreshing);

  useEffect(
    () =>
      onPush(PushMsgId.MAP_DOWNLOAD, (data) => {
        const parsed = mapDownloadPush.safeParse(data);
        if (!parsed.success) return;
        // A new job appears on the first page only; others update in place.
        setLive((l) =>
          page === 0 || l.jobs.some((j) => j.id === parsed.data.id) ? { ...l, jobs: mergeJob(l.jobs, parsed.data).slice(0, PAGE_SIZE) } : l,
        );
      }),
    [page],
  );

  const start = async () => {
    if (!box || !est || est.overLimit) return;
    setStarting(true);
    try {
      const res = await call('mapDown', { name: name.trim(), ...box, min_zoom: zooms[0], max_zoom: zooms[1] });
      notify().success(t('outLineMap.started', { total: formatCount(res.total, lang) }));
      setPage(0);
      await invalidateCall('mapDownList');
    } catch {
      /* the request layer showed the server's reason (tile limit, unfinished jobs) */
    } finally {
      setStarting(false);
    }
  };

  const cancel = async (job: MapDownload) => {
    try {
      const fresh = await call('mapDownCancel', { id: job.id });
      setLive((l) => ({ ...l, jobs: mergeJob(l.jobs, fresh) }));
      notify().success(t('outLineMap.cancelled'));
    } catch {
      await invalidateCall('mapDownList');
    }
  };

  const setBound = (key: keyof BoxDraft) => (v: number | null) => setDraft((d) => ({ ...d, [key]: v }));

  const columns = [
    { title: t('outLineMap.field.name'), dataIndex: 'name', key: 'name', render: (v: string) => v || t('outLineMap.unnamed') },
    { title: t('outLineMap.field.area'), key: 'area', render: (_: unknown, j: MapDownload) => <span className="offline-map-box">{formatBox(j)}</span> },
    { title: t('outLineMap.field.zooms'), key: 'zooms', width: 90, render: (_: unknown, j: MapDownload) => `${j.min_zoom} - ${j.max_zoom}` },
    {
      title: t('outLineMap.field.progress'),
      key: 'progress',
      width: 220,
      render: (_: unknown, j: MapDownload) => (
        <div data-testid={`job-progress-${j.id}`} data-done={j.done} data-total={j.total}>
          <Progress
            percent={progressPercent(j)}
            size="small"
            status={j.state === 'failed' ? 'exception' : j.state === 'running' ? 'active' : j.state === 'done' ? 'success' : 'normal'}
          />
          <div className="offline-map-tiles">{t('outLineMap.tiles', { done: formatCount(j.done, lang), total: formatCount(j.total, lang) })}</div>
        </div>
      ),
    },
    {
      title: t('outLineMap.field.state'),
      key: 'state',
      width: 110,
      render: (_: unknown, j: MapDownload) => (
        <Tooltip title={j.error || undefined}>
          <Tag color={STATE_COLORS[j.state]}>{t(`outLineMap.state.${j.state}`)}</Tag>
        </Tooltip>
      ),
    },
    timeColumn<MapDownload>(t('outLineMap.field.created'), 'created', (j) => j.create_time),
    actionsColumn<MapDownload>(t('outLineMap.field.actions'), 200, (j) => (
      <>
        {j.state === 'done' && (
          <Button size="small" icon={<EyeOutlined />} onClick={() => setViewing(j)} data-testid={`job-view-${j.id}`}>
            {t('outLineMap.view')}
          </Button>
        )}
        {canCancel && isActiveDownload(j.state) && (
          <Popconfirm title={t('outLineMap.confirmCancel')} onConfirm={() => void cancel(j)} okText={t('outLineMap.cancel')}>
            <Button size="small" danger icon={<StopOutlined />}>
              {t('outLineMap.cancel')}
            </Button>
          </Popconfirm>
        )}
      </>
    )),
  ];

  return (
    <AdminPage title={t('outLineMap.title')} testId="offline-map">
      <div className="offline-map-layout">
        <aside className="offline-map-form" aria-label={t('outLineMap.area')}>
          <h3>{t('outLineMap.area')}</h3>
          {!canStart && <Alert type="info" showIcon title={t('outLineMap.noPermission')} />}
          <label className="offline-map-field">
            <span>{t('outLineMap.name')}</span>
            <Input value={name} maxLength={64} placeholder={t('outLineMap.namePlaceholder')} onChange={(e) => setName(e.target.value)} data-testid="download-name" />
          </label>
          <div className="offline-map-buttons">
            <Button icon={drawing ? <CloseOutlined /> : <BorderOutlined />} type={drawing ? 'primary' : 'default'} onClick={() => setDrawing((d) => !d)} disabled={!!viewing || mapFailed} data-testid="download-draw">
              {drawing ? t('outLineMap.cancelDraw') : t('outLineMap.draw')}
            </Button>
            <Button icon={<FullscreenOutlined />} onClick={fromView} disabled={!!viewing || mapFailed} data-testid="download-from-view">
              {t('outLineMap.fromView')}
            </Button>
          </div>
          {drawing && <div className="offline-map-hint">{t('outLineMap.drawing')}</div>}
          <div className="offline-map-bounds">
            {(
              [
                ['max_lat', 'maxLat', 90],
                ['min_lat', 'minLat', 90],
                ['min_lng', 'minLng', 180],
                ['max_lng', 'maxLng', 180],
              ] as const
            ).map(([key, label, limit]) => (
              <label key={key} className="offline-map-field">
                <span>{t(`outLineMap.${label}`)}</span>
                <InputNumber value={draft[key]} min={-limit} max={limit} step={0.01} precision={6} onChange={setBound(key)} style={{ width: '100%' }} data-testid={`download-${key}`} />
              </label>
            ))}
          </div>
          <div className="offline-map-field">
            <span>
              {t('outLineMap.zoom')}: {t('outLineMap.zoomRange', { min: zooms[0], max: zooms[1] })}
            </span>
            <Slider
              range
              min={MAP_DOWNLOAD_MIN_ZOOM}
              max={MAP_DOWNLOAD_MAX_ZOOM}
              value={zooms}
              onChange={(v) => setZooms(v as [number, number])}
              marks={{ 0: '0', 5: '5', 10: '10' }}
              data-testid="download-zooms"
            />
          </div>
          <div className={`offline-map-estimate${est?.overLimit ? ' is-over' : ''}`} data-testid="download-estimate" data-count={est?.count ?? ''}>
            <span>{t('outLineMap.estimate')}</span>
            <strong>{est ? t('outLineMap.estimateValue', { count: formatCount(est.count, lang) }) : '—'}</strong>
          </div>
          {!box && <div className="offline-map-hint">{t('outLineMap.invalidBox')}</div>}
          {est?.overLimit && <Alert type="warning" showIcon title={t('outLineMap.overLimit', { max: formatCount(MAP_DOWNLOAD_MAX_TILES, lang) })} />}
          {canStart && (
            <Button type="primary" block loading={starting} disabled={!box || !est || est.overLimit} onClick={() => void start()} data-testid="download-start">
              {t('outLineMap.start')}
            </Button>
          )}
          <p className="offline-map-note">{t('outLineMap.storeNote')}</p>
        </aside>

        <div className="offline-map-map">
          <div ref={container} className="offline-map-canvas" data-testid="offline-map-canvas" data-basemap={basemap} />
          <BasemapNotice map={ready ? mapRef.current : null} basemap={basemap} onUseOffline={() => setChosenBasemap('offline')} />
          {mapFailed && (
            <div className="offline-map-failed" role="status">
              {t('map.unavailable')}
            </div>
          )}
          <ZoneLegend zones={zones} noFly={noFly} />
          <div className="offline-map-tools">
            {viewing ? (
              <div className="offline-map-viewing" data-testid="offline-map-viewing">
                <span>{t('outLineMap.viewing', { name: viewing.name || t('outLineMap.unnamed') })}</span>
                <Button size="small" onClick={() => setViewing(null)}>
                  {t('outLineMap.backToChoose')}
                </Button>
              </div>
            ) : (
              <BasemapSwitch value={chosenBasemap} onChange={setChosenBasemap} />
            )}
          </div>
        </div>
      </div>

      <section className="offline-map-jobs">
        <header>
          <h3>{t('outLineMap.jobs')}</h3>
          <Button size="small" icon={<ReloadOutlined />} onClick={() => void jobList.refresh()}>
            {t('outLineMap.refresh')}
          </Button>
        </header>
        {failed && <Alert type="error" showIcon title={t('outLineMap.loadFailed')} />}
        <Table<MapDownload>
          rowKey="id"
          size="small"
          loading={loading}
          dataSource={jobs}
          columns={columns}
          locale={{ emptyText: <Empty description={canList ? t('outLineMap.empty') : t('admin.noPermission')} /> }}
          pagination={{ current: page + 1, pageSize: PAGE_SIZE, total, showSizeChanger: false, size: 'small', onChange: (p) => setPage(p - 1), showTotal: (n) => t('admin.total', { total: n }) }}
          data-testid="download-jobs"
        />
      </section>

      <PackagesSection
        basemap={chosenBasemap}
        onUse={(id) => {
          // Stored at once (by the choice): every map opened from now on shows it, whether or not this one can draw.
          setViewing(null);
          setChosenBasemap(id);
        }}
      />
    </AdminPage>
  );
}
