import { useEffect, useState, type ReactNode } from 'react';
import { Empty, Image } from 'antd';
import { AchievementType, formatDateTime, formatHms, type ResultItem, type Sortie } from '@nest/contracts';
import { useI18n } from '../../../shared/i18n';
import { call } from '../../../shared/request';

const time = (s: number, lang: 'zh' | 'en') => (s > 0 ? formatDateTime(s * 1000, lang) : '--');

/**
 * The device's latest sortie (refreshed when a 360 says one began or ended) with its photos (refreshed on
 * every 350); a click opens the full image.
 */
export function LatestSortie({ sn, sortiesVersion, resultsVersion }: { sn: string; sortiesVersion: number; resultsVersion: number }): ReactNode {
  const { t, lang } = useI18n();
  const [sortie, setSortie] = useState<Sortie | null | undefined>(undefined);
  const [results, setResults] = useState<ResultItem[]>([]);

  useEffect(() => {
    let live = true;
    call('sortiesList', { sn_id: sn, page: 0, size: 1 }, { quiet: true })
      .then((p) => live && setSortie(p.list[0] ?? null))
      .catch(() => live && setSortie(null));
    return () => {
      live = false;
    };
  }, [sn, sortiesVersion]);

  const sortId = sortie?.sort_id;
  useEffect(() => {
    if (!sortId) {
      setResults([]);
      return;
    }
    let live = true;
    call('resultList', { sort_id: sortId, page: 0, size: 200 }, { quiet: true })
      .then((p) => live && setResults(p.list))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [sortId, resultsVersion]);

  if (sortie === undefined) return null;
  if (sortie === null) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('device.results.none')} data-testid="sortie-none" />;
  const duration = sortie.end_time > sortie.start_time ? formatHms(sortie.end_time - sortie.start_time) : t('device.results.inFlight');
  const images = results.filter((r) => r.type === AchievementType.IMAGE || r.type === AchievementType.PANORAMA);
  return (
    <div className="latest-sortie" data-testid="latest-sortie" data-sort-id={sortie.sort_id}>
      <div className="sortie-head">
        <span className="sortie-name" title={sortie.mission_name}>
          {sortie.mission_name || t(sortie.mission_id ? 'device.flight.noRouteName' : 'device.flight.oneKeyFlight')}
        </span>
        <span className="sortie-time">{time(sortie.start_time, lang)}</span>
      </div>
      <div className="sortie-meta">
        {t('device.results.duration')}: {duration} · {t('device.results.count', { count: results.length })}
      </div>
      {images.length > 0 ? (
        <Image.PreviewGroup>
          <div className="sortie-thumbs" data-testid="sortie-thumbs">
            {images.slice(0, 24).map((r) => (
              <Image key={r.id} src={r.thumb_url || r.url} preview={{ src: r.url }} width={64} height={48} alt={r.file_name} data-testid="sortie-thumb" />
            ))}
          </div>
        </Image.PreviewGroup>
      ) : (
        <div className="sortie-empty">{t('device.results.noPhotos')}</div>
      )}
    </div>
  );
}
