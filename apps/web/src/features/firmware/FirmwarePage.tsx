import type { ReactNode } from 'react';
import { Button, Tooltip, Typography, type TableColumnsType } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { FirmwareType, RecordState, formatSizeKb, type Firmware } from '@nest/contracts';
import { AdminPage, AdminTable, EditDeleteActions, OptionFilter, timeColumn, useFilters, useCan, useEditDialog, usePagedList, useRowChange } from '../../shared/admin';
import { useI18n } from '../../shared/i18n';
import { call } from '../../shared/request';
import { EditDialog } from './EditDialog';
import { UploadDialog } from './UploadDialog';
import './firmware.css';

const PAGE_SIZE = 10;

/** firmware: nest firmware packages (.wkimg), newest first, with search; upload with progress, edit texts, delete, download. */
export default function FirmwarePage(): ReactNode {
  const { t, lang } = useI18n();
  const can = useCan();
  const [filters, setFilters] = useFilters<{ search: string; type?: number }>({ search: '' });
  const list = usePagedList('romList', filters, PAGE_SIZE);
  const uploader = useEditDialog<null>(list.reload);
  const editor = useEditDialog<Firmware>(list.reload);
  const rowChange = useRowChange(list.reload);
  const canEdit = can('romEdit');

  const askDelete = (rom: Firmware) =>
    rowChange.askDelete(`${rom.version_name} (${rom.version_code})`, () =>
      call('romEdit', { id: rom.id, version_name: rom.version_name, description: rom.description, description_en: rom.description_en, state: RecordState.DELETED }),
    );

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
          <Typography.Text type="secondary" className="admin-nowrap">
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
    timeColumn(t('admin.createTime'), 'created', (r) => r.create_time),
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
          onEdit={canEdit && (() => editor.show(r))}
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
      search={{ placeholder: t('firmware.searchPlaceholder'), onSearch: (search) => setFilters({ search }), width: 320, testId: 'firmware-search' }}
      filters={<OptionFilter value={filters.type} onChange={(type) => setFilters({ type })} options={FirmwareType.options(lang)} allLabel={t('admin.all')} width={150} testId="firmware-type" />}
      onRefresh={list.reload}
      add={can('romAdd') && { onClick: () => uploader.show(null), testId: 'firmware-upload', label: t('firmware.upload'), icon: <UploadOutlined /> }}
    >
      {rowChange.holder}
      <AdminTable<Firmware> list={list} columns={columns} empty={t('firmware.empty')} testId="firmware-table" />
      {uploader.open && <UploadDialog {...uploader.dialog} />}
      {editor.open && <EditDialog rom={editor.open.of} {...editor.dialog} />}
    </AdminPage>
  );
}
