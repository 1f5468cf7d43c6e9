import { useState, type ReactNode } from 'react';
import { Button, Empty, Select } from 'antd';
import { DeleteOutlined, EditOutlined, UploadOutlined } from '@ant-design/icons';
import { DeviceKind, RecordState, formatHms, formatSizeKb, type TeachingVideo } from '@nest/contracts';
import { AdminPage, RowAction, VideoCard, VideoCardList, VideoCardPager, VideoDialog, useCan, useEditDialog, usePagedList, useRowChange } from '../../shared/admin';
import { formatSeconds } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { invalidateCall, useCall } from '../../shared/query';
import { call } from '../../shared/request';
import { EditVideoDialog, UploadVideoDialog } from './TeachingDialogs';
import './teaching.css';

export const PAGE_SIZE = 12;

/** teachingVideos: how-to videos as cards (poster, title, description), filter by device kind, search, play; upload / edit / delete with the functions. */
export default function TeachingVideosPage(): ReactNode {
  const { t, lang } = useI18n();
  const can = useCan();
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState(0);
  const list = usePagedList('teachList', { ...(search ? { search } : {}), ...(kind ? { cla_type: kind } : {}) }, PAGE_SIZE);
  // The kinds with their counts; a failure keeps the last ones (or none).
  const counts = useCall('videoDeviceTypeList', {}, { quiet: true, keepPrevious: true });
  const kinds = counts.data ?? [];
  const [playing, setPlaying] = useState<TeachingVideo | null>(null);
  // A change to the videos reads the page and the kind counts again; a new video shows on the first page.
  const load = () => invalidateCall('teachList', 'videoDeviceTypeList');
  const uploader = useEditDialog<null>(() => {
    list.setPage(0);
    return load();
  });
  const editor = useEditDialog<TeachingVideo>(load);
  const rowChange = useRowChange(load);

  const kindName = (v: number) => (v === 0 ? t('teachingVideos.everyKind') : DeviceKind.label(v, lang));
  const kindOptions = [
    { value: 0, label: t('teachingVideos.allKinds') },
    ...kinds.filter((k) => k.cla_type !== 0).map((k) => ({ value: k.cla_type, label: t('teachingVideos.kindCount', { name: kindName(k.cla_type), count: k.count }) })),
  ];

  const askDelete = (v: TeachingVideo) =>
    rowChange.askDelete(v.title, () => call('teachEdit', { id: v.id, title: v.title, cla_type: v.cla_type, state: RecordState.DELETED }));

  const body = () => (
    <VideoCardList
      items={list.rows}
      loading={list.loading}
      testId="teach-cards"
      className="teaching-cards"
      empty={
        <Empty description={list.failed ? t('teachingVideos.loadFailed') : t('teachingVideos.empty')}>
          {list.failed && <Button onClick={() => void load()}>{t('app.retry')}</Button>}
        </Empty>
      }
    >
      {(v) => (
        <VideoCard
          key={v.id}
          testId={`teach-${v.id}`}
          poster={v.poster_url}
          noPoster={t('teachingVideos.noPoster')}
          playLabel={t('teachingVideos.play')}
          onPlay={() => setPlaying(v)}
          duration={v.duration !== null ? formatHms(Math.round(v.duration)) : null}
          title={v.title}
          tag={kindName(v.cla_type)}
          actions={
            can('teachEdit') && (
              <>
                <RowAction icon={<EditOutlined />} onClick={() => editor.show(v)} testId={`teach-edit-${v.id}`}>
                  {t('admin.edit')}
                </RowAction>
                <RowAction danger icon={<DeleteOutlined />} onClick={() => askDelete(v)} testId={`teach-delete-${v.id}`}>
                  {t('admin.delete')}
                </RowAction>
              </>
            )
          }
        >
          <p className="teaching-card-describe" title={v.describe}>
            {v.describe || '--'}
          </p>
          <div className="teaching-card-meta">
            {formatSeconds(v.create_time)} · {formatSizeKb(v.size_kb)}
          </div>
        </VideoCard>
      )}
    </VideoCardList>
  );

  return (
    <AdminPage
      testId="teaching-videos"
      title={t('teachingVideos.title')}
      search={{ placeholder: t('teachingVideos.searchPlaceholder'), onSearch: setSearch, testId: 'teach-search' }}
      filters={<Select value={kind} onChange={setKind} options={kindOptions} style={{ width: 180 }} data-testid="teach-filter-kind" />}
      onRefresh={load}
      add={can('teachAdd') && { onClick: () => uploader.show(null), testId: 'teach-upload', label: t('teachingVideos.upload'), icon: <UploadOutlined /> }}
    >
      {rowChange.holder}
      {body()}
      <VideoCardPager list={list} showTotal={(total) => t('admin.total', { total })} small />
      <VideoDialog url={playing?.preview_url ?? null} title={playing?.title ?? ''} muted={false} onClose={() => setPlaying(null)} testId="teach-player">
        {playing?.describe && <p style={{ marginTop: 12, whiteSpace: 'pre-wrap' }}>{playing.describe}</p>}
      </VideoDialog>
      {uploader.open && <UploadVideoDialog {...uploader.dialog} />}
      {editor.open && <EditVideoDialog video={editor.open.of} {...editor.dialog} />}
    </AdminPage>
  );
}
