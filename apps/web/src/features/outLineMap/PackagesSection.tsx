import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Empty, Input, Modal, Popconfirm, Progress, Table, Tag, Upload } from 'antd';
import { CheckCircleOutlined, DeleteOutlined, FileOutlined, ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import {
  MAP_PACKAGE_EXTS,
  MAP_PACKAGE_FILE_FIELD,
  MAP_PACKAGE_MAX_BYTES,
  MAP_PACKAGE_NAME_FORBIDDEN,
  MAP_PACKAGE_NAME_MAX,
  MAP_PACKAGE_TEXTS,
  calls,
  formatSizeKb,
  holds,
  mapPackageContainer,
  type MapPackage,
} from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { isPackageBasemap, packageBasemap, packageIdOf, type BasemapId } from '../../shared/map/basemaps';
import { setMapPackages } from '../../shared/map/packages';
import { notify } from '../../shared/notify';
import { invalidateCall, useCall } from '../../shared/query';
import { call } from '../../shared/request';
import { useUser } from '../../shared/session';
import { formatBox } from './area';
import { actionsColumn, timeColumn } from './columns';

const LIST_SIZE = 200;
/** No packages (none read yet, or the read failed), the same list on every render. */
const NO_PACKAGES: MapPackage[] = [];
const sizeText = (bytes: number) => formatSizeKb(bytes / 1024);


/**
 * Upload an offline map package: a name (no path characters) and one .mbtiles / .pmtiles file, with a
 * progress bar; the server's refusal (not a database, wrong tables, truncated archive, no tiles...) is
 * said in the dialog, and the dialog stays open to choose another file.
 */
function UploadDialog({ onClose, onSaved }: { onClose: () => void; onSaved: (p: MapPackage) => void }): ReactNode {
  const { t, lang } = useI18n();
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const autoName = useRef('');

  const nameProblem = MAP_PACKAGE_NAME_FORBIDDEN.test(name) ? MAP_PACKAGE_TEXTS.name[lang] : null;
  // What the browser can tell before sending (name and size); the server checks the content.
  const chosenProblem = !file
    ? null
    : !mapPackageContainer(file.name)
      ? MAP_PACKAGE_TEXTS.extension[lang]
      : file.size > MAP_PACKAGE_MAX_BYTES
        ? t('outLineMap.packages.tooLarge', { size: sizeText(file.size), max: sizeText(MAP_PACKAGE_MAX_BYTES) })
        : null;
  const sending = percent !== null;
  const ready = !!file && !chosenProblem && name.trim() !== '' && !nameProblem && !sending;

  const send = async () => {
    if (!ready || !file) return;
    const controller = new AbortController();
    abort.current = controller;
    setRefusal(null);
    setPercent(0);
    try {
      const saved = await call(
        'mapPackageAdd',
        { name: name.trim() },
        { files: { [MAP_PACKAGE_FILE_FIELD]: file }, onUploadProgress: (f) => setPercent(Math.round(f * 100)), signal: controller.signal, quiet: true },
      );
      notify().success(t('outLineMap.packages.uploaded', { name: saved.name }));
      onSaved(saved);
    } catch (err) {
      if (!controller.signal.aborted) setRefusal((err as Error).message || String(err));
    } finally {
      abort.current = null;
      setPercent(null);
    }
  };

  const cancel = () => {
    abort.current?.abort();
    onClose();
  };

  return (
    <Modal
      open
      title={t('outLineMap.packages.uploadTitle')}
      onCancel={cancel}
      mask={{ closable: !sending }}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={cancel}>
          {t('common.cancel')}
        </Button>,
        <Button key="ok" type="primary" loading={sending} disabled={!ready} onClick={() => void send()} data-testid="package-send">
          {t('outLineMap.packages.upload')}
        </Button>,
      ]}
    >
      <div className="offline-map-package-form" data-testid="package-form">
        <label className="offline-map-field">
          <span>{t('outLineMap.packages.name')}</span>
          <Input
            value={name}
            maxLength={MAP_PACKAGE_NAME_MAX}
            placeholder={t('outLineMap.packages.namePlaceholder')}
            onChange={(e) => setName(e.target.value)}
            status={nameProblem ? 'error' : undefined}
            disabled={sending}
            data-testid="package-name"
          />
        </label>
        {nameProblem && <div className="offline-map-package-problem" data-testid="package-name-problem">{nameProblem}</div>}
        <div className="offline-map-field">
          <span>{t('outLineMap.packages.file')}</span>
          <Upload
            accept={MAP_PACKAGE_EXTS.join(',')}
            maxCount={1}
            showUploadList={false}
            disabled={sending}
            beforeUpload={(f) => {
              setFile(f);
              setRefusal(null);
              // The file's name fills the name unless one was typed (read when applied: this runs after the choice).
              const fromFile = f.name.replace(/\.(mbtiles|pmtiles)$/i, '').replace(new RegExp(MAP_PACKAGE_NAME_FORBIDDEN, 'g'), ' ').slice(0, MAP_PACKAGE_NAME_MAX).trim();
              setName((typed) => {
                if (typed.trim() && typed !== autoName.current) return typed;
                autoName.current = fromFile;
                return fromFile;
              });
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} data-testid="package-choose">
              {t('outLineMap.packages.choose')}
            </Button>
          </Upload>
          <div className="offline-map-hint">{t('outLineMap.packages.fileHint', { max: sizeText(MAP_PACKAGE_MAX_BYTES) })}</div>
          {file && (
            <div className="offline-map-package-file" data-testid="package-chosen">
              <FileOutlined /> {file.name} · {sizeText(file.size)}
            </div>
          )}
        </div>
        {chosenProblem && <Alert type="error" showIcon title={chosenProblem} data-testid="package-problem" />}
        {sending && <Progress percent={percent ?? 0} size="small" status="active" data-testid="package-progress" />}
        {refusal && <Alert type="error" showIcon title={t('outLineMap.packages.refused', { reason: refusal })} data-testid="package-refusal" />}
      </div>
    </Modal>
  );
}

/**
 * The company's offline map packages on the offline-map screen (/map/packageList): name, kind, format,
 * zooms, bounds, size, who uploaded it and when; upload (/map/packageAdd), delete with confirmation
 * (/map/packageDelete) and "use as basemap", which is the choice every map then shows.
 */
export function PackagesSection({ basemap, onUse }: { basemap: BasemapId; onUse: (id: BasemapId) => void }): ReactNode {
  const { t, lang } = useI18n();
  const user = useUser();
  const canList = holds(user?.fun_list, calls.mapPackageList.access);
  const canAdd = holds(user?.fun_list, calls.mapPackageAdd.access);
  const canDelete = holds(user?.fun_list, calls.mapPackageDelete.access);
  const [uploading, setUploading] = useState(false);
  const current = isPackageBasemap(basemap) ? packageIdOf(basemap) : null;

  // Read quietly: a failure is said by the alert above the table, and the last list stays.
  const packages = useCall('mapPackageList', canList ? { page: 0, size: LIST_SIZE } : null, { quiet: true });
  const list = packages.data?.list ?? NO_PACKAGES;
  const failed = packages.isError;
  // Every map's basemap switch offers the same list, handed on after every read (an unchanged answer too: it
  // also brings back a package marked gone that the server still lists).
  useEffect(() => {
    if (packages.data) setMapPackages(packages.data.list);
  }, [packages.data, packages.dataUpdatedAt]);

  const remove = async (p: MapPackage) => {
    try {
      await call('mapPackageDelete', { id: p.id });
      notify().success(t('outLineMap.packages.deleted'));
    } catch {
      /* the request layer said why */
    }
    await invalidateCall('mapPackageList');
  };

  const use = (p: MapPackage) => {
    onUse(packageBasemap(p.id));
    notify().success(t('outLineMap.packages.used', { name: p.name }));
  };

  const columns = [
    { title: t('outLineMap.packages.field.name'), dataIndex: 'name', key: 'name', render: (v: string) => <span className="offline-map-package-name">{v}</span> },
    {
      title: t('outLineMap.packages.field.kind'),
      key: 'kind',
      width: 80,
      render: (_: unknown, p: MapPackage) => <Tag color={p.kind === 'vector' ? 'geekblue' : 'green'}>{t(`outLineMap.packages.kind.${p.kind}`)}</Tag>,
    },
    { title: t('outLineMap.packages.field.format'), key: 'format', width: 130, render: (_: unknown, p: MapPackage) => `${p.container.toUpperCase()} · ${p.format.toUpperCase()}` },
    { title: t('outLineMap.packages.field.zooms'), key: 'zooms', width: 70, render: (_: unknown, p: MapPackage) => `${p.min_zoom} - ${p.max_zoom}` },
    { title: t('outLineMap.packages.field.bounds'), key: 'bounds', render: (_: unknown, p: MapPackage) => <span className="offline-map-box">{formatBox(p)}</span> },
    { title: t('outLineMap.packages.field.size'), key: 'size', width: 90, render: (_: unknown, p: MapPackage) => sizeText(p.size) },
    { title: t('outLineMap.packages.field.uploadedBy'), dataIndex: 'u_name', key: 'by', width: 110 },
    timeColumn<MapPackage>(t('outLineMap.packages.field.uploadedAt'), 'at', (p) => p.create_time),
    actionsColumn<MapPackage>(t('outLineMap.packages.field.actions'), 220, (p) => (
      <>
        {current === p.id ? (
          <Tag icon={<CheckCircleOutlined />} color="processing" data-testid={`package-in-use-${p.id}`}>
            {t('outLineMap.packages.inUse')}
          </Tag>
        ) : (
          <Button size="small" onClick={() => use(p)} data-testid={`package-use-${p.id}`}>
            {t('outLineMap.packages.use')}
          </Button>
        )}
        {canDelete && (
          <Popconfirm
            title={t('outLineMap.packages.confirmDelete', { name: p.name })}
            onConfirm={() => void remove(p)}
            okText={t('outLineMap.packages.delete')}
            okButtonProps={{ danger: true, 'data-testid': 'package-delete-ok' }}
          >
            <Button size="small" danger icon={<DeleteOutlined />} data-testid={`package-delete-${p.id}`}>
              {t('outLineMap.packages.delete')}
            </Button>
          </Popconfirm>
        )}
      </>
    )),
  ];

  return (
    <section className="offline-map-jobs offline-map-packages" data-testid="map-packages" lang={lang}>
      <header>
        <h3>{t('outLineMap.packages.title')}</h3>
        <span className="offline-map-packages-tools">
          {canAdd && (
            <Button size="small" type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)} data-testid="package-upload">
              {t('outLineMap.packages.upload')}
            </Button>
          )}
          <Button size="small" icon={<ReloadOutlined />} onClick={() => void packages.refetch()} disabled={!canList}>
            {t('outLineMap.refresh')}
          </Button>
        </span>
      </header>
      <p className="offline-map-note">{t('outLineMap.packages.intro')}</p>
      {failed && <Alert type="error" showIcon title={t('outLineMap.packages.loadFailed')} />}
      <Table<MapPackage>
        rowKey="id"
        size="small"
        loading={packages.isFetching}
        dataSource={list}
        columns={columns}
        pagination={false}
        locale={{ emptyText: <Empty description={canList ? t('outLineMap.packages.empty') : t('outLineMap.packages.noPermission')} /> }}
        data-testid="package-list"
      />
      {uploading && (
        <UploadDialog
          onClose={() => setUploading(false)}
          onSaved={() => {
            setUploading(false);
            void invalidateCall('mapPackageList');
          }}
        />
      )}
    </section>
  );
}
