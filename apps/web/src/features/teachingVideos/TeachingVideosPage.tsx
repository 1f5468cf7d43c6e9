import { Suspense, lazy, useCallback, useEffect, useState, type ReactNode } from 'react';
import { Button, Empty, Modal, Pagination, Select, Spin } from 'antd';
import { DeleteOutlined, EditOutlined, PlayCircleOutlined, UploadOutlined } from '@ant-design/icons';
import { DeviceKind, RecordState, calls, formatHms, formatSizeKb, holds, type Page, type TeachingKind, type TeachingVideo } from '@nest/contracts';
import { AdminActions, AdminPage, SearchFilter, confirmDelete } from '../../shared/admin';
import { formatSeconds } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { call } from '../../shared/request';
import { useUser } from '../../shared/session';
import { EditVideoDialog, UploadVideoDialog } from './TeachingDialogs';
import './teaching.css';

const VideoPlayer = lazy(() => import('../../shared/video/VideoPlayer'));

export const PAGE_SIZE = 12;


/** teachingVideos: how-to videos as cards (poster, title, description), filter by device kind, search, play; upload / edit / delete with the functions. */
export default function TeachingVideosPage(): ReactNode {
  const { t, lang } = useI18n();
  const user = useUser();
  const [modal, modalHolder] = Modal.useModal();
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState(0);
  const [page, setPage] = useState(0);
  const [kinds, setKinds] = useState<TeachingKind[]>([]);
  const [data, setData] = useState<Page<TeachingVideo>>({ list: [], total: 0 });
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [playing, setPlaying] = useState<TeachingVideo | null>(null);
  const [uploading, setUploading] = useState(false);
  const [editing, setEditing] = useState<TeachingVideo | null>(null);
  const canAdd = holds(user?.fun_list, calls.teachAdd.access);
  const canEdit = holds(user?.fun_list, calls.teachEdit.access);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const [result, counts] = await Promise.all([
        call('teachList', { page, size: PAGE_SIZE, ...(search ? { search } : {}), ...(kind ? { cla_type: kind } : {}) }),
        call('videoDeviceTypeList', {}, { quiet: true }).catch(() => null),
      ]);
      setData({ list: result?.list ?? [], total: result?.total ?? 0 });
      if (counts) setKinds(counts);
      setFailed(false);
    } catch {
      setData({ list: [], total: 0 });
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }, [page, search, kind]);

  useEffect(() => {
    void load();
  }, [load]);

  const kindName = (v: number) => (v === 0 ? t('teaching.everyKind') : DeviceKind.label(v, lang));
  const kindOptions = [
    { value: 0, label: t('teaching.allKinds') },
    ...kinds.filter((k) => k.cla_type !== 0).map((k) => ({ value: k.cla_type, label: t('teaching.kindCount', { name: kindName(k.cla_type), count: k.count }) })),
  ];

  const askDelete = (v: TeachingVideo) =>
    confirmDelete(modal.confirm, v.title, async () => {
      try {
        await call('teachEdit', { id: v.id, title: v.title, cla_type: v.cla_type, state: RecordState.DELETED });
        notify().success(t('admin.deleted'));
      } catch {
        // Shown by the request layer.
      }
      await load();
    });

  const body = () => {
    if (loading && data.list.length === 0) {
      return (
        <div className="teaching-state">
          <Spin />
        </div>
      );
    }
    if (data.list.length === 0) {
      return (
        <div className="teaching-state">
          <Empty description={failed ? t('teaching.loadFailed') : t('teaching.empty')}>
            {failed && <Button onClick={() => void load()}>{t('app.retry')}</Button>}
          </Empty>
        </div>
      );
    }
    return (
      <Spin spinning={loading}>
        <ul className="teaching-cards" data-testid="teach-cards">
          {data.list.map((v) => (
            <li key={v.id} className="teaching-card" data-testid={`teach-${v.id}`}>
              <button type="button" className="teaching-card-poster" onClick={() => setPlaying(v)} aria-label={t('teaching.play')}>
                {v.poster_url ? <img src={v.poster_url} alt="" loading="lazy" /> : <span className="teaching-card-noposter">{t('teaching.noPoster')}</span>}
                <PlayCircleOutlined className="teaching-card-play" />
                {v.duration !== null && <span className="teaching-card-duration">{formatHms(Math.round(v.duration))}</span>}
              </button>
              <div className="teaching-card-info">
                <div className="teaching-card-title">
                  <span title={v.title}>{v.title}</span>
                  <em>{kindName(v.cla_type)}</em>
                </div>
                <p className="teaching-card-describe" title={v.describe}>
                  {v.describe || '--'}
                </p>
                <div className="teaching-card-meta">
                  {formatSeconds(v.create_time)} · {formatSizeKb(v.size_kb)}
                </div>
              </div>
              {canEdit && (
                <div className="teaching-card-actions">
                  <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(v)} data-testid={`teach-edit-${v.id}`}>
                    {t('admin.edit')}
                  </Button>
                  <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => askDelete(v)} data-testid={`teach-delete-${v.id}`}>
                    {t('admin.delete')}
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      </Spin>
    );
  };

  return (
    <AdminPage
      testId="teaching-videos"
      title={t('teaching.title')}
      filters={
        <>
          <SearchFilter
            placeholder={t('teaching.searchPlaceholder')}
            onSearch={(text) => {
              setSearch(text);
              setPage(0);
            }}
            testId="teach-search"
          />
          <Select
            value={kind}
            onChange={(v) => {
              setKind(v);
              setPage(0);
            }}
            options={kindOptions}
            style={{ width: 180 }}
            data-testid="teach-filter-kind"
          />
        </>
      }
      actions={
        <AdminActions
          onRefresh={load}
          add={canAdd && { onClick: () => setUploading(true), testId: 'teach-upload', label: t('teaching.upload'), icon: <UploadOutlined /> }}
        />
      }
    >
      {modalHolder}
      {body()}
      <footer className="teaching-foot">
        <Pagination
          current={page + 1}
          pageSize={PAGE_SIZE}
          total={data.total}
          showSizeChanger={false}
          showTotal={(total) => t('admin.total', { total })}
          onChange={(p) => setPage(p - 1)}
          size="small"
        />
      </footer>
      <Modal open={!!playing} onCancel={() => setPlaying(null)} footer={null} width={880} destroyOnHidden title={playing?.title ?? ''}>
        {playing && (
          <Suspense fallback={<div className="video-player" />}>
            <VideoPlayer url={playing.preview_url} live={false} muted={false} controls testId="teach-player" />
            {playing.describe && <p style={{ marginTop: 12, whiteSpace: 'pre-wrap' }}>{playing.describe}</p>}
          </Suspense>
        )}
      </Modal>
      {uploading && (
        <UploadVideoDialog
          onClose={() => setUploading(false)}
          onSaved={() => {
            setUploading(false);
            setPage(0);
            void load();
          }}
        />
      )}
      {editing && (
        <EditVideoDialog
          video={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void load();
          }}
        />
      )}
    </AdminPage>
  );
}
