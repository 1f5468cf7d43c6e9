import { Suspense, lazy, useEffect, useRef, useState, type ReactNode, type PointerEvent as ReactPointerEvent } from 'react';
import { Link } from 'react-router-dom';
import { Button, Descriptions, Modal, Space, Spin, Tooltip } from 'antd';
import { DeleteOutlined, DownloadOutlined, ExpandOutlined, LeftOutlined, RightOutlined, ZoomInOutlined, ZoomOutOutlined, UndoOutlined } from '@ant-design/icons';
import { formatHms, type ResultItem } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { formatBytes, neighbour } from './query';
import { TypeBadge, takenAtText } from './shared';

const PanoramaViewer = lazy(() => import('./PanoramaViewer'));

const MIN_SCALE = 1;
const MAX_SCALE = 8;
const clampScale = (s: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, s));

/** An image that zooms (wheel, buttons, double click) around the cursor and pans by dragging. */
function ZoomImage({ src, alt }: { src: string; alt: string }): ReactNode {
  const { t } = useI18n();
  const [view, setView] = useState({ scale: 1, x: 0, y: 0 });
  const drag = useRef<{ x: number; y: number; vx: number; vy: number } | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    setView({ scale: 1, x: 0, y: 0 });
    setFailed(false);
  }, [src]);

  // React's onWheel is passive: a native listener may prevent the page from scrolling while zooming.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = el.getBoundingClientRect();
      const cx = e.clientX - r.left - r.width / 2;
      const cy = e.clientY - r.top - r.height / 2;
      setView((v) => {
        const scale = clampScale(v.scale * (e.deltaY < 0 ? 1.2 : 1 / 1.2));
        if (scale === 1) return { scale: 1, x: 0, y: 0 };
        const k = scale / v.scale;
        return { scale, x: cx - (cx - v.x) * k, y: cy - (cy - v.y) * k };
      });
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const zoomBy = (f: number) =>
    setView((v) => {
      const scale = clampScale(v.scale * f);
      return scale === 1 ? { scale: 1, x: 0, y: 0 } : { scale, x: v.x * (scale / v.scale), y: v.y * (scale / v.scale) };
    });
  const onDown = (e: ReactPointerEvent) => {
    if (view.scale === 1) return;
    drag.current = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y };
    (e.target as Element).setPointerCapture?.(e.pointerId);
  };
  const onMove = (e: ReactPointerEvent) => {
    const d = drag.current;
    if (d) setView((v) => ({ ...v, x: d.vx + e.clientX - d.x, y: d.vy + e.clientY - d.y }));
  };
  const onUp = () => {
    drag.current = null;
  };

  return (
    <div
      ref={box}
      className={`result-zoom ${view.scale > 1 ? 'is-zoomed' : ''}`}
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerCancel={onUp}
      onDoubleClick={() => (view.scale > 1 ? setView({ scale: 1, x: 0, y: 0 }) : zoomBy(2.5))}
    >
      {failed ? (
        <div className="result-media-error">{t('results.preview.noFile')}</div>
      ) : (
        <img
          data-testid="result-preview-image"
          src={src}
          alt={alt}
          draggable={false}
          onError={() => setFailed(true)}
          style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})` }}
        />
      )}
      <div className="result-zoom-tools" onPointerDown={(e) => e.stopPropagation()} onDoubleClick={(e) => e.stopPropagation()}>
        <Tooltip title={t('results.panorama.zoomIn')}>
          <Button size="small" icon={<ZoomInOutlined />} onClick={() => zoomBy(1.5)} aria-label={t('results.panorama.zoomIn')} data-testid="preview-zoom-in" />
        </Tooltip>
        <Tooltip title={t('results.panorama.zoomOut')}>
          <Button size="small" icon={<ZoomOutOutlined />} onClick={() => zoomBy(1 / 1.5)} aria-label={t('results.panorama.zoomOut')} />
        </Tooltip>
        <Tooltip title={t('results.panorama.reset')}>
          <Button size="small" icon={<UndoOutlined />} onClick={() => setView({ scale: 1, x: 0, y: 0 })} aria-label={t('results.panorama.reset')} />
        </Tooltip>
        <span className="result-zoom-level">{Math.round(view.scale * 100)}%</span>
      </div>
    </div>
  );
}

export interface ResultPreviewProps {
  /** The list being browsed; `index` the shown one (-1: closed, which closing asks for). */
  items: readonly ResultItem[];
  index: number;
  onIndex: (index: number) => void;
  onDelete?: (item: ResultItem) => void;
  /** Sortie names by sort_id, for the sortie fact (the id when the name is not known). */
  sortieNames?: ReadonlyMap<string, string>;
}

/** One result in a dialog: the media by type, its facts, download, delete, and prev/next through the list. */
export function ResultPreview({ items, index, onIndex, onDelete, sortieNames }: ResultPreviewProps): ReactNode {
  const { t, lang } = useI18n();
  const item = index >= 0 ? items[index] : undefined;
  const prev = neighbour(items.length, index, -1);
  const next = neighbour(items.length, index, 1);

  useEffect(() => {
    if (!item) return;
    const onKey = (e: KeyboardEvent) => {
      if ((e.target as HTMLElement | null)?.closest?.('input, textarea')) return;
      if (e.key === 'ArrowLeft' && prev !== null) onIndex(prev);
      if (e.key === 'ArrowRight' && next !== null) onIndex(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [item, prev, next, onIndex]);

  const media = (r: ResultItem): ReactNode => {
    if (r.type === 20)
      return (
        <video key={r.url} data-testid="result-preview-video" className="result-video" src={r.url} poster={r.thumb_url || undefined} controls autoPlay playsInline preload="metadata" />
      );
    if (r.type === 15)
      return (
        <Suspense fallback={<Spin />}>
          <PanoramaViewer key={r.url} url={r.url} height="100%" />
        </Suspense>
      );
    return <ZoomImage src={r.url} alt={r.file_name} />;
  };

  const unknown = t('results.preview.unknown');
  return (
    <Modal
      open={!!item}
      onCancel={() => onIndex(-1)}
      footer={null}
      width={1080}
      centered
      destroyOnHidden
      title={
        item && (
          <Space size={8} className="result-preview-title">
            <TypeBadge type={item.type} />
            <span className="result-preview-name" title={item.file_name}>
              {item.file_name}
            </span>
          </Space>
        )
      }
      className="result-preview-modal"
    >
      {item && (
        <div className="result-preview" data-testid="result-preview" data-id={item.id} data-type={item.type}>
          <div className="result-preview-media">
            {media(item)}
            {prev !== null && (
              <Button className="result-nav result-nav-prev" shape="circle" icon={<LeftOutlined />} onClick={() => onIndex(prev)} aria-label={t('results.action.prev')} data-testid="preview-prev" />
            )}
            {next !== null && (
              <Button className="result-nav result-nav-next" shape="circle" icon={<RightOutlined />} onClick={() => onIndex(next)} aria-label={t('results.action.next')} data-testid="preview-next" />
            )}
          </div>
          <aside className="result-preview-info">
            <Descriptions
              column={1}
              size="small"
              items={[
                { key: 'file', label: t('results.field.file'), children: <span className="result-break">{item.file_name}</span> },
                { key: 'device', label: t('results.field.device'), children: item.device_name || item.sn_id },
                ...(item.sort_id ? [{ key: 'sortie', label: t('results.field.sortie'), children: sortieNames?.get(item.sort_id) || item.sort_id }] : []),
                { key: 'taken', label: t('results.field.takenAt'), children: takenAtText(item, lang) },
                {
                  key: 'pos',
                  label: t('results.field.position'),
                  children: item.lat || item.lng ? `${item.lat.toFixed(6)}, ${item.lng.toFixed(6)}` : unknown,
                },
                { key: 'alt', label: t('results.field.altitude'), children: `${item.altitude.toFixed(1)} m` },
                { key: 'size', label: t('results.field.size'), children: formatBytes(item.size) },
                { key: 'px', label: t('results.field.pixels'), children: item.width && item.height ? `${item.width} × ${item.height}` : unknown },
                ...(item.type === 20 && item.duration ? [{ key: 'dur', label: t('results.field.duration'), children: formatHms(item.duration) }] : []),
                ...(item.waypoint_index !== null ? [{ key: 'wp', label: t('results.field.waypoint'), children: String(item.waypoint_index + 1) }] : []),
              ]}
            />
            <div className="result-preview-actions">
              <span className="result-preview-counter">{t('results.preview.counter', { index: index + 1, total: items.length })}</span>
              <Space wrap>
                {item.type === 15 && (
                  <Link to={`/panorama?id=${item.id}&url=${encodeURIComponent(item.url)}`} data-testid="preview-open-panorama">
                    <Button icon={<ExpandOutlined />}>{t('results.action.openPanorama')}</Button>
                  </Link>
                )}
                <a href={item.url} download={item.file_name} data-testid="result-download">
                  <Button type="primary" icon={<DownloadOutlined />}>
                    {t('results.action.download')}
                  </Button>
                </a>
                {onDelete && (
                  <Button danger icon={<DeleteOutlined />} onClick={() => onDelete(item)} data-testid="result-delete">
                    {t('results.action.delete')}
                  </Button>
                )}
              </Space>
            </div>
          </aside>
        </div>
      )}
    </Modal>
  );
}
