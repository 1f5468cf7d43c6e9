import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Spin } from 'antd';
import type { Viewer } from '@photo-sphere-viewer/core';
import { useI18n } from '../../shared/i18n';

export interface PanoramaViewerProps {
  /** An equirectangular image. */
  url: string;
  /** Grows to the parent's height when absent. */
  height?: number | string;
  className?: string;
}

/**
 * A 360° viewer of an equirectangular image (Photo Sphere Viewer on three.js): drag to look around, wheel
 * or navbar buttons to zoom, full screen. The library is imported on first use so it stays out of every
 * chunk but this one; one viewer lives per mount and is destroyed with it (it holds a WebGL context).
 */
export default function PanoramaViewer({ url, height, className }: PanoramaViewerProps): ReactNode {
  const { t, lang } = useI18n();
  const host = useRef<HTMLDivElement>(null);
  const viewer = useRef<Viewer | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let cancelled = false;
    setState('loading');
    void (async () => {
      try {
        const [{ Viewer: PSV }] = await Promise.all([import('@photo-sphere-viewer/core'), import('@photo-sphere-viewer/core/index.css')]);
        if (cancelled) return;
        const v = new PSV({
          container: el,
          navbar: ['zoom', 'move', 'fullscreen'],
          defaultZoomLvl: 30,
          loadingTxt: t('results.panorama.loading'),
          lang: {
            zoom: t('results.panorama.zoom'),
            zoomIn: t('results.panorama.zoomIn'),
            zoomOut: t('results.panorama.zoomOut'),
            fullscreen: t('results.panorama.fullscreen'),
            loading: t('results.panorama.loading'),
            loadError: t('results.panorama.failed'),
            webglError: t('results.panorama.failed'),
            moveUp: '↑',
            moveDown: '↓',
            moveLeft: '←',
            moveRight: '→',
          },
        });
        viewer.current = v;
        const ok = await v.setPanorama(url, { showLoader: true, transition: false }).catch(() => false);
        if (!cancelled) setState(ok === false ? 'failed' : 'ready');
      } catch {
        if (!cancelled) setState('failed');
      }
    })();
    return () => {
      cancelled = true;
      viewer.current?.destroy();
      viewer.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the texts are read once per viewer; a language switch builds a new one
  }, [url, lang]);

  return (
    <div
      className={`panorama-viewer ${className ?? ''}`}
      data-testid="panorama-viewer"
      data-state={state}
      style={height === undefined ? undefined : { height }}
    >
      <div ref={host} className="panorama-viewer-canvas" />
      {state === 'loading' && (
        <div className="panorama-viewer-state">
          <Spin />
        </div>
      )}
      {state === 'failed' && <div className="panorama-viewer-state panorama-viewer-error">{t('results.panorama.failed')}</div>}
    </div>
  );
}
