import { useState, type ReactNode } from 'react';
import { Button, DatePicker, Empty, Select } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { RecordingVrType, formatHms, formatSizeKb, type RecordingVideo } from '@nest/contracts';
import { DeviceSelect, VideoCard, VideoCardList, VideoCardPager, VideoDialog, useDeviceList, useFilters, usePagedList } from '../../shared/admin';
import { formatSeconds, PICKER_FORMATS } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { invalidateCall } from '../../shared/query';
import { displayName } from '../../shared/fleet';
import './videoList.css';

export const PAGE_SIZE = 12;

export interface RecordingFilter {
  sn: string | null;
  vrType: number | null;
  range: [Dayjs, Dayjs] | null;
}

/** The call's fields for a filter (without the page): the date range from the first day's start to the last day's end. */
export function recordingQuery(filter: RecordingFilter) {
  return {
    ...(filter.sn ? { sn_id: filter.sn } : {}),
    ...(filter.vrType ? { vr_type: filter.vrType } : {}),
    ...(filter.range ? { start_time: filter.range[0].startOf('day').unix(), end_time: filter.range[1].endOf('day').unix() } : {}),
  };
}

/** Recordings of the nests' outside cameras (/videoList): filters, paged cards, playback in a dialog. */
export default function VideoListPage(): ReactNode {
  const { t, lang } = useI18n();
  const devices = useDeviceList();
  const [filter, change] = useFilters<RecordingFilter>({ sn: null, vrType: null, range: null });
  // A new filter goes back to the first page (usePagedList).
  const list = usePagedList('videoUserList', recordingQuery(filter), PAGE_SIZE);
  const [playing, setPlaying] = useState<RecordingVideo | null>(null);

  const nameOf = (sn: string) => {
    const d = devices.find((x) => x.sn_id === sn);
    return d ? displayName(d) : sn;
  };

  return (
    <div className="video-list-screen" data-testid="video-list">
      <header className="video-list-head">
        <h1>{t('videoList.title')}</h1>
        <div className="video-list-filters">
          <DeviceSelect devices={devices} value={filter.sn} onChange={(sn) => change({ sn })} placeholder={t('videoList.device')} width={240} testId="video-filter-device" />
          <Select
            allowClear
            placeholder={t('videoList.camera')}
            value={filter.vrType ?? undefined}
            onChange={(v?: number) => change({ vrType: v ?? null })}
            options={RecordingVrType.options(lang)}
            style={{ width: 180 }}
            data-testid="video-filter-camera"
          />
          <DatePicker.RangePicker
            value={filter.range}
            format={PICKER_FORMATS[lang].date}
            onChange={(r) => change({ range: r && r[0] && r[1] ? [r[0], r[1]] : null })}
            allowClear
            data-testid="video-filter-range"
          />
          <Button icon={<ReloadOutlined />} onClick={() => void invalidateCall('videoUserList')} aria-label={t('videoList.refresh')}>
            {t('videoList.refresh')}
          </Button>
        </div>
      </header>

      <div className="video-list-body">
        <VideoCardList items={list.rows} loading={list.loading} empty={<Empty description={t('videoList.empty')} />}>
          {(r) => (
            <VideoCard
              key={r.id}
              testId={`recording-${r.id}`}
              poster={r.thumb_url}
              playLabel={t('videoList.play')}
              onPlay={() => setPlaying(r)}
              duration={formatHms(r.end_time - r.start_time)}
              title={nameOf(r.sn_id)}
              tag={RecordingVrType.label(r.vr_type, lang)}
            >
              <dl>
                <dt>{t('videoList.start')}</dt>
                <dd>{formatSeconds(r.start_time)}</dd>
                <dt>{t('videoList.end')}</dt>
                <dd>{formatSeconds(r.end_time)}</dd>
                <dt>{t('videoList.size')}</dt>
                <dd>{formatSizeKb(r.size_kb)}</dd>
              </dl>
            </VideoCard>
          )}
        </VideoCardList>
      </div>

      <VideoCardPager list={list} showTotal={(total) => t('videoList.total', { total })} />

      <VideoDialog
        url={playing?.url ?? null}
        title={playing ? `${nameOf(playing.sn_id)} · ${RecordingVrType.label(playing.vr_type, lang)} · ${formatSeconds(playing.start_time)}` : ''}
        onClose={() => setPlaying(null)}
        testId="recording-player"
      />
    </div>
  );
}
