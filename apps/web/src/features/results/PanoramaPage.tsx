import { Suspense, lazy, useEffect, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Result, Spin } from 'antd';
import { ArrowLeftOutlined, DownloadOutlined } from '@ant-design/icons';
import type { ResultItem } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { call } from '../../shared/request';
import { panoramaSource } from './query';
import { takenAtText } from './shared';
import './results.css';

const PanoramaViewer = lazy(() => import('./PanoramaViewer'));

/** Pages of panoramas looked through for ?id= (resultList has no id filter); newest first. */
const LOOKUP_PAGES = 5;

type Shown = { state: 'loading' } | { state: 'error'; key: 'missing' | 'notFound' | 'notPanorama' } | { state: 'ok'; url: string; item: ResultItem | null };

async function findResult(id: string): Promise<ResultItem | null> {
  for (let page = 0; page < LOOKUP_PAGES; page += 1) {
    const p = await call('resultList', { type: 15, page, size: 1000 }, { quiet: true });
    const hit = p?.list.find((r) => r.id === id);
    if (hit) return hit;
    if (!p || (page + 1) * 1000 >= p.total) break;
  }
  return null;
}

/** /panorama?id=<result id> (or ?url=<same-site image>): one equirectangular result in the 360° viewer, full screen. */
export default function PanoramaPage(): ReactNode {
  const { t, lang } = useI18n();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const source = panoramaSource(params);
  const [shown, setShown] = useState<Shown>({ state: 'loading' });

  useEffect(() => {
    let live = true;
    if (source.kind === 'none') setShown({ state: 'error', key: 'missing' });
    else if (source.kind === 'url' && source.id === null) setShown({ state: 'ok', url: source.url, item: null });
    else {
      if (source.kind === 'url') setShown({ state: 'ok', url: source.url, item: null });
      else setShown({ state: 'loading' });
      findResult(source.id!)
        .then((r) => {
          if (!live) return;
          if (r) setShown({ state: 'ok', url: r.url, item: r });
          else if (source.kind !== 'url') setShown({ state: 'error', key: 'notFound' });
        })
        .catch(() => live && source.kind !== 'url' && setShown({ state: 'error', key: 'notFound' }));
    }
    return () => {
      live = false;
    };
  }, [source.kind, source.id, source.url]);

  const back = () => void (window.history.length > 1 ? navigate(-1) : navigate('/resultsShow?type=15'));

  return (
    <div className="panorama-screen" data-testid="panorama-screen">
      <header className="panorama-bar">
        <Button icon={<ArrowLeftOutlined />} onClick={back} data-testid="panorama-back">
          {t('results.panorama.back')}
        </Button>
        <div className="panorama-bar-title">
          <strong>{shown.state === 'ok' && shown.item ? shown.item.file_name : t('results.panorama.title')}</strong>
          {shown.state === 'ok' && shown.item && (
            <span className="results-muted">
              {shown.item.device_name || shown.item.sn_id} · {takenAtText(shown.item, lang)}
            </span>
          )}
        </div>
        <span className="panorama-bar-hint results-muted">{t('results.panorama.hint')}</span>
        {shown.state === 'ok' && (
          <a href={shown.url} download={shown.item?.file_name ?? ''}>
            <Button icon={<DownloadOutlined />}>{t('results.action.download')}</Button>
          </a>
        )}
      </header>
      <main className="panorama-stage">
        {shown.state === 'loading' && <Spin size="large" />}
        {shown.state === 'error' && <Result status="warning" title={t(`results.panorama.${shown.key}`)} extra={<Button onClick={back}>{t('results.panorama.back')}</Button>} />}
        {shown.state === 'ok' && (
          <Suspense fallback={<Spin size="large" />}>
            <PanoramaViewer key={shown.url} url={shown.url} height="100%" />
          </Suspense>
        )}
      </main>
    </div>
  );
}
