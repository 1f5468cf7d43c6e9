import { useState, type ReactNode } from 'react';
import { Button, Modal, Tooltip, Typography, type TableColumnsType } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { FirmwareType, RecordState, calls, formatSizeKb, holds, type Firmware } from '@nest/contracts';
import { AdminPage, AdminTable, EditDeleteActions, OptionFilter, confirmDelete, usePagedList } from '../../shared/admin';
import { formatSeconds } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { call } from '../../shared/request';
import { useUser } from '../../shared/session';
import { EditDialog } from './EditDialog';
import { UploadDialog } from './UploadDialog';
import './firmware.css';

const PAGE_SIZE = 10;

/** firmware: nest firmware packages (.wkimg), newest first, with search; upload with progress, edit texts, delete, download. */
export default function FirmwarePage(): ReactNode {
  const { t, lang } = useI18n();
  const user = useUser();
  const [modal, modalHolder] = Modal.useModal();
  const [search, setSearch] = useState('');
  const [type, setType] = useState<number | undefined>(undefined);
  const list = usePagedList('romList', { search, type }, PAGE_SIZE);
  const [uploading, setUploading] = useState(false);
  const [editing, setEditing] = useState<Firmware | null>(null);
  const canAdd = holds(user?.fun_list, calls.romAdd.access);
  const canEdit = holds(user?.fun_list, calls.romEdit.access);

  const askDelete = (rom: Firmware) =>
    confirmDelete(modal.confirm, `${rom.version_name} (${rom.version_code})`, async () => {
      try {
        await call('romEdit', {
          id: rom.id,
          version_name: rom.version_name,
          description: rom.description,
          description_en: rom.description_en,
          state: RecordState.DELETED,
        });
        notify().success(t('admin.deleted'));
      } catch {
        // Shown by the request layer.
      }
      await list.reload();
    });

  const notes = (rom: Firmware) => {
    const [first, second] = lang === 'zh' ? [rom.description, rom.description_en] : [rom.description_en, rom.description];
    return (
      <div className="firmware-notes">
        <span>{first}</span>
        <small>{second}</small>
      </div>
    );
  };

  const columns: TableColumnsType<Firmware> = [
    { title: t('firmware.col.type'), key: 'type', render: (_, r) => FirmwareType.label(r.type, lang) },
    { title: t('firmware.col.versionCode'), key: 'code', dataIndex: 'version_code' },
    { title: t('firmware.col.versionName'), key: 'name', render: (_, r) => <Typography.Text strong>{r.version_name}</Typography.Text> },
    { title: t('firmware.col.description'), key: 'notes', render: (_, r) => notes(r) },
    {
      title: t('firmware.col.file'),
      key: 'file',
      render: (_, r) => (
        <div>
          <div>{r.file_name}</div>
          <Typography.Text type="secondary" className="firmware-nowrap">
            {formatSizeKb(r.size_kb)}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: t('firmware.col.md5'),
      key: 'md5',
      render: (_, r) => (
        <Typography.Text className="firmware-md5" copyable={{ text: r.md5 }}>
          <Tooltip title={`SHA-256 ${r.sha256}`}>{r.md5}</Tooltip>
        </Typography.Text>
      ),
    },
    { title: t('admin.createTime'), key: 'created', render: (_, r) => <span className="firmware-nowrap">{formatSeconds(r.create_time)}</span> },
    {
      title: t('admin.actions'),
      key: 'actions',
      render: (_, r) => (
        <EditDeleteActions
          wrap
          leading={
            <Button type="link" size="small" icon={<DownloadOutlined />} href={r.url} download={r.file_name} disabled={!r.url} data-testid={`firmware-download-${r.version_code}`}>
              {t('firmware.download')}
            </Button>
          }
          onEdit={canEdit && (() => setEditing(r))}
          onDelete={canEdit && (() => askDelete(r))}
          editTestId={`firmware-edit-${r.version_code}`}
          deleteTestId={`firmware-delete-${r.version_code}`}
        />
      ),
    },
  ];

  return (
    <AdminPage
      testId="firmware"
      title={t('firmware.title')}
      search={{ placeholder: t('firmware.searchPlaceholder'), onSearch: setSearch, width: 320, testId: 'firmware-search' }}
      filters={<OptionFilter value={type} onChange={setType} options={FirmwareType.options(lang)} allLabel={t('admin.all')} width={150} testId="firmware-type" />}
      onRefresh={list.reload}
      add={canAdd && { onClick: () => setUploading(true), testId: 'firmware-upload', label: t('firmware.upload'), icon: <UploadOutlined /> }}
    >
      {modalHolder}
      <AdminTable<Firmware> list={list} columns={columns} empty={t('firmware.empty')} testId="firmware-table" />
      {uploading && (
        <UploadDialog
          onClose={() => setUploading(false)}
          onSaved={() => {
            setUploading(false);
            void list.reload();
          }}
        />
      )}
      {editing && (
        <EditDialog
          rom={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void list.reload();
          }}
        />
      )}
    </AdminPage>
  );
}
