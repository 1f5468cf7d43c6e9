import { Suspense, lazy, useCallback, useEffect, useState, type ReactNode } from 'react';
import { Button, DatePicker, Empty, Modal, Pagination, Select, Spin } from 'antd';
import { PlayCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import {
  DEVICE_LIST_DEFAULT_SIZE,
  RecordingVrType,
  formatHms,
  formatSizeKb,
  type DeviceListItem,
  type Page,
  type RecordingVideo,
} from '@nest/contracts';
import { formatSeconds } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { call } from '../../shared/request';
import { displayName } from '../../shared/fleet';
import './videoList.css';

const VideoPlayer = lazy(() => import('../../shared/video/VideoPlayer'));

export const PAGE_SIZE = 12;

export interface RecordingFilter {
  sn: string | null;
  vrType: number | null;
  range: [Dayjs, Dayjs] | null;
}

/** The call's fields for a filter and a 0-based page: the date range from the first day's start to the last day's end. */
export function recordingQuery(filter: RecordingFilter, page: number) {
  return {
    page,
    size: PAGE_SIZE,
    ...(filter.sn ? { sn_id: filter.sn } : {}),
    ...(filter.vrType ? { vr_type: filter.vrType } : {}),
    ...(filter.range ? { start_time: filter.range[0].startOf('day').unix(), end_time: filter.range[1].endOf('day').unix() } : {}),
  };
}

/** Recordings of the nests' outside cameras (/videoList): filters, paged cards, playback in a dialog. */
export default function VideoListPage(): ReactNode {
  const { t, lang } = useI18n();
  const [devices, setDevices] = useState<DeviceListItem[]>([]);
  const [filter, setFilter] = useState<RecordingFilter>({ sn: null, vrType: null, range: null });
  const [page, setPage] = useState(0);
  const [data, setData] = useState<Page<RecordingVideo>>({ list: [], total: 0 });
  const [loading, setLoading] = useState(true);
  const [playing, setPlaying] = useState<RecordingVideo | null>(null);

  useEffect(() => {
    call('deviceList', { type: 0, page: 0, size: DEVICE_LIST_DEFAULT_SIZE }, { quiet: true })
      .then((p) => setDevices(p?.list ?? []))
      .catch(() => undefined);
  }, []);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const result = await call('videoUserList', recordingQuery(filter, page));
      setData({ list: result?.list ?? [], total: result?.total ?? 0 });
    } catch {
      setData({ list: [], total: 0 });
    } finally {
      setLoading(false);
    }
  }, [filter, page]);

  useEffect(() => {
    void load();
  }, [load]);

  const nameOf = (sn: string) => {
    const d = devices.find((x) => x.sn_id === sn);
    return d ? displayName(d) : sn;
  };
  const change = (next: Partial<RecordingFilter>) => {
    setFilter((f) => ({ ...f, ...next }));
    setPage(0);
  };

  return (
    <div className="video-list-screen" data-testid="video-list">
      <header className="video-list-head">
        <h1>{t('videoList.title')}</h1>
        <div className="video-list-filters">
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={t('videoList.device')}
            value={filter.sn ?? undefined}
            onChange={(sn?: string) => change({ sn: sn ?? null })}
            options={devices.map((d) => ({ value: d.sn_id, label: `${displayName(d)} (${d.sn_id})` }))}
            style={{ width: 240 }}
            data-testid="video-filter-device"
          />
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
            onChange={(r) => change({ range: r && r[0] && r[1] ? [r[0], r[1]] : null })}
            allowClear
            data-testid="video-filter-range"
          />
          <Button icon={<ReloadOutlined />} onClick={() => void load()} aria-label={t('videoList.refresh')}>
            {t('videoList.refresh')}
          </Button>
        </div>
      </header>

      <div className="video-list-body">
        {loading && data.list.length === 0 ? (
          <div className="video-list-state"><Spin /></div>
        ) : data.list.length === 0 ? (
          <div className="video-list-state">
            <Empty description={t('videoList.empty')} />
          </div>
        ) : (
          <Spin spinning={loading}>
            <ul className="video-cards">
              {data.list.map((r) => (
                <li key={r.id} className="video-card" data-testid={`recording-${r.id}`}>
                  <button type="button" className="video-card-thumb" onClick={() => setPlaying(r)} aria-label={t('videoList.play')}>
                    {r.thumb_url ? <img src={r.thumb_url} alt="" loading="lazy" /> : <span className="video-card-nothumb" />}
                    <PlayCircleOutlined className="video-card-play" />
                    <span className="video-card-duration">{formatHms(r.end_time - r.start_time)}</span>
                  </button>
                  <div className="video-card-info">
                    <div className="video-card-title">
                      <span title={nameOf(r.sn_id)}>{nameOf(r.sn_id)}</span>
                      <em>{RecordingVrType.label(r.vr_type, lang)}</em>
                    </div>
                    <dl>
                      <dt>{t('videoList.start')}</dt>
                      <dd>{formatSeconds(r.start_time)}</dd>
                      <dt>{t('videoList.end')}</dt>
                      <dd>{formatSeconds(r.end_time)}</dd>
                      <dt>{t('videoList.size')}</dt>
                      <dd>{formatSizeKb(r.size_kb)}</dd>
                    </dl>
                  </div>
                </li>
              ))}
            </ul>
          </Spin>
        )}
      </div>

      <footer className="video-list-foot">
        <Pagination
          current={page + 1}
          pageSize={PAGE_SIZE}
          total={data.total}
          showSizeChanger={false}
          showTotal={(total) => t('videoList.total', { total })}
          onChange={(p) => setPage(p - 1)}
          hideOnSinglePage={false}
        />
      </footer>

      <Modal
        open={!!playing}
        onCancel={() => setPlaying(null)}
        footer={null}
        width={880}
        destroyOnHidden
        title={playing ? `${nameOf(playing.sn_id)} · ${RecordingVrType.label(playing.vr_type, lang)} · ${formatSeconds(playing.start_time)}` : ''}
      >
        {playing && (
          <Suspense fallback={<div className="video-player" />}>
            <VideoPlayer url={playing.url} live={false} controls testId="recording-player" />
          </Suspense>
        )}
      </Modal>
    </div>
  );
}
