import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useHref, useSearchParams } from 'react-router-dom';
import { Alert, Button, Drawer, Image, Modal, Segmented, Slider, Spin, Tooltip } from 'antd';
import { CaretRightFilled, PauseOutlined, PictureOutlined, ReloadOutlined, SwapOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { formatDateTime, formatTime, FlightState, formatDistance, formatDistanceText, formatHms, type ResultItem, type SortieTrack } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { useCall } from '../../shared/query';
import { useTheme } from '../../shared/theme';
import type { MapPhoto } from './ReplayMap';
import { SortiePicker } from './SortiePicker';
import {
  REPLAY_SPEEDS,
  SEEK_STEP_LONG_MS,
  SEEK_STEP_MS,
  advance,
  clampSeek,
  clampSpeed,
  cumulativeDistances,
  photoTime,
  sampleAt,
  playbackSpan,
  type ReplaySpeed,
} from './replay';
import './replay.css';

const ReplayMap = lazy(() => import('./ReplayMap'));

/** No results (none read, or they could not be read), the same list on every render. */
const NO_RESULTS: ResultItem[] = [];

/** Result types (AchievementType): 15 panorama opens its viewer, 20 video plays in a modal, the rest are images. */
const PANORAMA = 15;
const VIDEO = 20;
/** Battery (%) below which the readout turns to warning colour. */
const BATTERY_LOW = 30;

/**
 * Result replay (/routeReplay?sort_id=): a sortie's flown track against its planned route on the map, the
 * aircraft moving along it with its heading, the results where they were taken, a timeline with play, speed
 * and seek, and the telemetry at the cursor. Without sort_id the operator picks a sortie first.
 */
export default function RouteReplayPage(): ReactNode {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const sortId = params.get('sort_id')?.trim() || null;
  const [pickerOpen, setPickerOpen] = useState(false);

  const pick = useCallback(
    (id: string) => {
      setPickerOpen(false);
      setParams((p) => {
        const next = new URLSearchParams(p);
        next.set('sort_id', id);
        return next;
      });
    },
    [setParams],
  );

  if (!sortId) {
    return (
      <div className="replay-page replay-page-picker">
        <h2 className="replay-picker-title">{t('routeReplay.picker.title')}</h2>
        <SortiePicker onPick={pick} />
      </div>
    );
  }
  return (
    <>
      <Replay key={sortId} sortId={sortId} onChoose={() => setPickerOpen(true)} />
      <Drawer open={pickerOpen} onClose={() => setPickerOpen(false)} title={t('routeReplay.picker.title')} size={980} destroyOnHidden>
        <SortiePicker onPick={pick} />
      </Drawer>
    </>
  );
}

function Replay({ sortId, onChoose }: { sortId: string; onChoose: () => void }): ReactNode {
  const { t } = useI18n();
  // The player starts over on each reload (its position and playback reset at once); the earlier answer stays
  // on screen until the new one arrives.
  const [round, setRound] = useState(0);
  // Both reads are quiet: a track that cannot be read is said on the page, results that cannot are left out.
  const track = useCall('sortiesTrack', { id: sortId }, { quiet: true });
  const results = useCall('resultList', { sort_id: sortId, page: 0, size: 1000 }, { quiet: true });
  const reload = () => {
    setRound((n) => n + 1);
    void Promise.all([track.refetch(), results.refetch()]);
  };

  if (track.isError) {
    return (
      <div className="replay-page replay-center" data-testid="replay-error">
        <Alert type="error" showIcon title={t('routeReplay.notFound', { reason: track.error.message })} />
        <div className="replay-actions">
          <Button onClick={onChoose} icon={<SwapOutlined />}>{t('routeReplay.chooseSortie')}</Button>
          <Link to="/achievementAdmin"><Button icon={<UnorderedListOutlined />}>{t('routeReplay.backToList')}</Button></Link>
        </div>
      </div>
    );
  }
  if (!track.data || results.isPending) {
    return (
      <div className="replay-page replay-center" data-testid="replay-loading">
        <Spin />
        <span>{t('routeReplay.loading')}</span>
      </div>
    );
  }
  return <Player key={round} track={track.data} results={results.isError ? NO_RESULTS : (results.data?.list ?? NO_RESULTS)} onReload={reload} onChoose={onChoose} />;
}

interface PlayerProps {
  track: SortieTrack;
  results: ResultItem[];
  onReload: () => void;
  onChoose: () => void;
}

function Player({ track, results, onReload, onChoose }: PlayerProps): ReactNode {
  const { t, lang } = useI18n();
  const theme = useTheme();
  const panoramaHref = useHref('/panorama');
  const { sortie } = track;
  const points = track.points;
  const planned = useMemo(() => (Array.isArray(track.planned) ? track.planned : []), [track.planned]);
  const cumulative = useMemo(() => cumulativeDistances(points), [points]);
  const { t0, total } = playbackSpan(points, sortie);
  const open = !sortie.end_time;

  const [elapsed, setElapsed] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<ReplaySpeed>(1);
  const elapsedRef = useRef(0);
  const speedRef = useRef<ReplaySpeed>(1);
  speedRef.current = speed;

  const seek = useCallback(
    (ms: number) => {
      const v = clampSeek(ms, total);
      elapsedRef.current = v;
      setElapsed(v);
    },
    [total],
  );

  // Playback: each animation frame moves the cursor by the real time passed times the speed.
  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let id = 0;
    const frame = (now: number) => {
      const r = advance(elapsedRef.current, now - last, speedRef.current, total);
      last = now;
      elapsedRef.current = r.elapsed;
      setElapsed(r.elapsed);
      if (!r.playing) {
        setPlaying(false);
        return;
      }
      id = requestAnimationFrame(frame);
    };
    id = requestAnimationFrame(frame);
    return () => cancelAnimationFrame(id);
  }, [playing, total]);

  const toggle = useCallback(() => {
    if (total <= 0) return;
    setPlaying((p) => {
      // Play at the end starts over.
      if (!p && elapsedRef.current >= total) {
        elapsedRef.current = 0;
        setElapsed(0);
      }
      return !p;
    });
  }, [total]);

  const sample = useMemo(() => sampleAt(points, cumulative, t0 + elapsed), [points, cumulative, t0, elapsed]);

  // ---------------------------------------------------------------- results on the map and timeline
  const photos = useMemo<(MapPhoto & { item: ResultItem })[]>(
    () =>
      results
        .filter((r) => Number.isFinite(r.lat) && Number.isFinite(r.lng) && !(r.lat === 0 && r.lng === 0))
        .map((r) => ({ id: r.id, type: r.type, lat: r.lat, lng: r.lng, thumb: r.thumb_url, name: r.file_name, time: photoTime(points, r) ?? r.taken_at, item: r })),
    [results, points],
  );
  const images = useMemo(() => photos.filter((p) => p.type !== VIDEO && p.type !== PANORAMA), [photos]);
  const [preview, setPreview] = useState<number | null>(null);
  const [video, setVideo] = useState<ResultItem | null>(null);

  const openPhoto = useCallback(
    (p: MapPhoto) => {
      if (points.length > 0) seek(p.time - t0);
      const item = photos.find((x) => x.id === p.id)?.item;
      if (!item) return;
      if (item.type === PANORAMA) window.open(`${panoramaHref}?id=${item.id}`, '_blank', 'noopener');
      else if (item.type === VIDEO) {
        setPlaying(false);
        setVideo(item);
      } else {
        setPlaying(false);
        setPreview(Math.max(0, images.findIndex((x) => x.id === p.id)));
      }
    },
    [photos, images, points.length, seek, t0, panoramaHref],
  );

  // ---------------------------------------------------------------- keyboard
  const modalOpen = preview !== null || video !== null;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (modalOpen || e.altKey || e.ctrlKey || e.metaKey) return;
      const el = e.target instanceof Element ? e.target : null;
      if (el?.closest('input, textarea, select, [contenteditable="true"], .ant-slider, .ant-select, .ant-drawer, .ant-modal')) return;
      if (e.key === ' ' || e.code === 'Space') {
        // A focused button answers space itself.
        if (el?.closest('button, a, [role="button"], [role="radio"]')) return;
        e.preventDefault();
        toggle();
      } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        e.preventDefault();
        const step = e.shiftKey ? SEEK_STEP_LONG_MS : SEEK_STEP_MS;
        seek(elapsedRef.current + (e.key === 'ArrowLeft' ? -step : step));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [modalOpen, toggle, seek]);

  // ---------------------------------------------------------------- header figures
  // The same span as the timeline's clock (playbackSpan), so header and timeline always agree.
  const durationS = total / 1000;
  const distanceM = open ? (cumulative.at(-1) ?? 0) : sortie.distance;
  const empty = points.length === 0;
  const flownKm = formatDistance(sample?.distance ?? 0);

  return (
    <div className="replay-page" data-testid="replay-page" data-sort-id={sortie.sort_id} data-points={points.length} data-planned={planned.length}>
      <header className="replay-bar replay-header">
        <div className="replay-title">
          <h2 data-testid="replay-route">{sortie.mission_name || t('results.sortie.oneKey')}</h2>
          {open && <span className="replay-flying-tag">{t('routeReplay.meta.flying')}</span>}
        </div>
        <dl className="replay-meta">
          <div><dt>{t('routeReplay.meta.device')}</dt><dd data-testid="replay-device">{sortie.device_name || sortie.sn_id}</dd></div>
          <div><dt>{t('routeReplay.meta.user')}</dt><dd>{sortie.user_name || '—'}</dd></div>
          <div><dt>{t('routeReplay.meta.start')}</dt><dd>{formatDateTime(sortie.start_time * 1000, lang)}</dd></div>
          <div><dt>{t('routeReplay.meta.duration')}</dt><dd data-testid="replay-duration">{formatHms(durationS)}</dd></div>
          <div><dt>{t('routeReplay.meta.distance')}</dt><dd data-testid="replay-total-distance">{formatDistanceText(distanceM)}</dd></div>
          <div><dt>{t('routeReplay.meta.count')}</dt><dd data-testid="replay-count">{results.length}</dd></div>
        </dl>
        <div className="replay-actions">
          <Button size="small" icon={<SwapOutlined />} onClick={onChoose} data-testid="replay-choose">{t('routeReplay.chooseSortie')}</Button>
          <Link to={`/resultsShow?sort_id=${encodeURIComponent(sortie.sort_id)}`} data-testid="replay-results-link">
            <Button size="small" icon={<PictureOutlined />}>{t('routeReplay.results')}</Button>
          </Link>
          <Link to="/achievementAdmin" data-testid="replay-list-link">
            <Button size="small" icon={<UnorderedListOutlined />}>{t('routeReplay.backToList')}</Button>
          </Link>
        </div>
      </header>

      {open && (
        <Alert
          className="replay-banner"
          data-testid="replay-open"
          type="info"
          showIcon
          title={t('routeReplay.open')}
          action={<Button size="small" icon={<ReloadOutlined />} onClick={onReload} data-testid="replay-reload">{t('routeReplay.reload')}</Button>}
        />
      )}
      {empty && <Alert className="replay-banner" data-testid="replay-empty" type="warning" showIcon title={t('routeReplay.noPoints')} />}

      <div className="replay-body">
        <Suspense fallback={<div className="replay-center"><Spin /></div>}>
          <ReplayMap points={points} planned={planned} photos={photos} sample={sample} theme={theme} onPhoto={openPhoto} />
        </Suspense>
        {sample && (
          <div className="replay-readouts" data-testid="replay-readouts">
            <Readout label={t('routeReplay.readout.height')} testid="replay-height" value={sample.height.toFixed(1)} unit="m" />
            <Readout label={t('routeReplay.readout.speed')} testid="replay-speed-readout" value={sample.speed.toFixed(1)} unit="m/s" />
            <Readout
              label={t('routeReplay.readout.battery')}
              testid="replay-battery"
              value={String(Math.round(sample.battery))}
              unit="%"
              warn={sample.battery < BATTERY_LOW}
            />
            <Readout label={t('routeReplay.readout.distance')} testid="replay-distance" value={flownKm.value} unit={flownKm.unit} />
            <Readout label={t('routeReplay.readout.heading')} testid="replay-heading" value={String(Math.round(sample.heading))} unit="°" />
            <Readout label={t('routeReplay.readout.altitude')} testid="replay-altitude" value={sample.alt.toFixed(1)} unit="m" />
            <div className="replay-readout replay-readout-wide">
              <span className="replay-readout-label">{t('routeReplay.readout.state')}</span>
              <span className="replay-readout-text" data-testid="replay-state" data-state={sample.flightState}>
                {FlightState.has(sample.flightState) ? FlightState.label(sample.flightState, lang) : String(sample.flightState)}
              </span>
            </div>
            <div className="replay-readout replay-readout-wide">
              <span className="replay-readout-label">{t('routeReplay.readout.time')}</span>
              <span className="replay-readout-text" data-testid="replay-time">{formatTime(sample.t, lang)}</span>
            </div>
          </div>
        )}
      </div>

      <footer className="replay-bar replay-timeline" data-testid="replay-timeline">
        <Tooltip title={`${playing ? t('routeReplay.player.pause') : t('routeReplay.player.play')} (Space)`}>
          <Button
            type="primary"
            shape="circle"
            size="large"
            className="replay-play"
            data-testid="replay-play"
            data-playing={playing ? 'true' : 'false'}
            aria-pressed={playing}
            aria-label={playing ? t('routeReplay.player.pause') : t('routeReplay.player.play')}
            disabled={total <= 0}
            icon={playing ? <PauseOutlined /> : <CaretRightFilled />}
            onClick={toggle}
          />
        </Tooltip>
        <Segmented
          size="small"
          data-testid="replay-speed"
          data-speed={speed}
          aria-label={t('routeReplay.player.speed')}
          value={speed}
          onChange={(v) => setSpeed(clampSpeed(v))}
          options={REPLAY_SPEEDS.map((s) => ({ value: s, label: <span data-testid={`replay-speed-${s}`}>{s}x</span> }))}
        />
        <span className="replay-clock" data-testid="replay-clock" title={t('routeReplay.player.clock')} data-elapsed={Math.round(elapsed)} data-total={total}>
          {formatHms(elapsed / 1000)} / {formatHms(total / 1000)}
        </span>
        <div className="replay-track-bar">
          <div className="replay-ticks" aria-hidden={photos.length === 0}>
            {total > 0 &&
              photos.map((p) => (
                <Tooltip key={p.id} title={t('routeReplay.player.photoAt', { name: p.name, time: formatHms((p.time - t0) / 1000) })}>
                  <button
                    type="button"
                    tabIndex={-1}
                    className={`replay-tick replay-tick-${p.type}${p.time <= t0 + elapsed ? ' is-passed' : ''}`}
                    data-testid="replay-tick"
                    data-id={p.id}
                    style={{ left: `${(clampSeek(p.time - t0, total) / total) * 100}%` }}
                    onClick={() => seek(p.time - t0)}
                    onDoubleClick={() => openPhoto(p)}
                  />
                </Tooltip>
              ))}
          </div>
          <div data-testid="replay-slider" className="replay-slider" data-value={Math.round(elapsed)} data-max={total}>
            <Slider
              min={0}
              max={Math.max(1, total)}
              step={100}
              value={elapsed}
              disabled={total <= 0}
              aria-label={t('routeReplay.player.slider')}
              tooltip={{ formatter: (v) => formatHms((v ?? 0) / 1000) }}
              onChange={(v: number) => seek(v)}
            />
          </div>
        </div>
        <span className="replay-keys">{t('routeReplay.player.keys')}</span>
      </footer>

      <Image.PreviewGroup
        items={images.map((p) => p.item.url)}
        preview={{
          open: preview !== null,
          current: preview ?? 0,
          onOpenChange: (v) => !v && setPreview(null),
          onChange: (c) => setPreview(c),
        }}
      />
      <Modal
        open={video !== null}
        title={video?.file_name ?? t('routeReplay.media.video')}
        footer={null}
        width={880}
        onCancel={() => setVideo(null)}
        destroyOnHidden
        data-testid="replay-video"
      >
        {video && <video className="replay-video" src={video.url} poster={video.thumb_url || undefined} controls autoPlay data-testid="replay-video-player" />}
      </Modal>
    </div>
  );
}

function Readout({ label, value, unit, testid, warn }: { label: string; value: string; unit: string; testid: string; warn?: boolean }): ReactNode {
  return (
    <div className={`replay-readout${warn ? ' is-warn' : ''}`}>
      <span className="replay-readout-label">{label}</span>
      <span className="replay-readout-value" data-testid={testid} data-value={value}>
        {value}
        <small>{unit}</small>
      </span>
    </div>
  );
}
