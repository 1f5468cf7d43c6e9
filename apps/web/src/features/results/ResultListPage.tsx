import { Suspense, lazy, useMemo, type ReactNode } from 'react';
import { Button, Segmented, Space, Spin, Table, Tooltip, type TableColumnsType } from 'antd';
import { DeleteOutlined, DownloadOutlined, EyeOutlined, EnvironmentOutlined, PictureOutlined, TableOutlined, AppstoreOutlined } from '@ant-design/icons';
import { Link } from 'react-router-dom';
import { formatMmSs, type ResultItem } from '@nest/contracts';
import { useDeviceList } from '../../shared/admin';
import { useI18n } from '../../shared/i18n';
import { useTheme } from '../../shared/theme';
import { EMPTY_RESULT_FILTER, formatBytes, isFiltered, writeResultFilter } from './query';
import { ResultFilterBar, ResultsScreen, RetryAlert, takenAtText, TypeBadge, useResultFilter } from './shared';
import { SelectionButtons, useResultBrowsing } from './useResultActions';
import { useResults, useSortieNames } from './useResults';
import './results.css';

const ResultMap = lazy(() => import('./ResultMap'));

export const LIST_PAGE_SIZE = 20;
/** The map shows one page of located results: the call's largest page. */
export const MAP_LIMIT = 1000;

/** totalResultList: the results as a table, or on a map by where they were taken. */
export default function ResultListPage(): ReactNode {
  const { t, lang } = useI18n();
  const theme = useTheme();
  const [filter, setFilter, params, setParam] = useResultFilter();
  const view = params.get('view') === 'map' ? 'map' : 'table';
  const devices = useDeviceList();
  const sortieNames = useSortieNames();
  const table = useResults(filter, LIST_PAGE_SIZE, {}, view === 'table');
  const mapFilter = useMemo(() => ({ ...filter, page: 0 }), [filter]);
  const located = useResults(mapFilter, MAP_LIMIT, { located: 1 }, view === 'map');
  const shown = view === 'map' ? located : table;
  const { confirmDelete, zip, holder, selected, setSelected, setOpen, preview } = useResultBrowsing(shown, view === 'table', filter, setFilter, sortieNames);

  const sortieLabel = (id: string | null) => (id ? (sortieNames.get(id) ?? `#${id.slice(-8)}`) : '--');
  const columns: TableColumnsType<ResultItem> = [
    {
      key: 'thumb',
      title: t('results.field.thumb'),
      width: 96,
      render: (_, r, i) => (
        <button type="button" className="result-row-thumb" onClick={() => setOpen(i)} aria-label={r.file_name}>
          {r.thumb_url ? <img src={r.thumb_url} alt="" loading="lazy" /> : <PictureOutlined />}
          {r.type === 20 && r.duration ? <span className="result-card-duration">{formatMmSs(r.duration)}</span> : null}
        </button>
      ),
    },
    {
      key: 'file',
      title: t('results.field.file'),
      ellipsis: true,
      render: (_, r, i) => (
        <a onClick={() => setOpen(i)} title={r.file_name} data-testid="result-open">
          {r.file_name}
        </a>
      ),
    },
    { key: 'type', title: t('results.field.type'), width: 100, render: (_, r) => <TypeBadge type={r.type} /> },
    { key: 'device', title: t('results.field.device'), ellipsis: true, render: (_, r) => r.device_name || r.sn_id },
    {
      key: 'sortie',
      title: t('results.field.sortie'),
      ellipsis: true,
      render: (_, r) =>
        r.sort_id ? (
          <a onClick={() => setFilter({ sortId: r.sort_id })} title={t('results.filter.sortie')}>
            {sortieLabel(r.sort_id)}
          </a>
        ) : (
          '--'
        ),
    },
    { key: 'taken', title: t('results.field.takenAt'), width: 190, render: (_, r) => takenAtText(r, lang) },
    { key: 'size', title: t('results.field.size'), width: 100, align: 'right', render: (_, r) => formatBytes(r.size) },
    {
      key: 'actions',
      title: t('results.field.actions'),
      width: 130,
      render: (_, r, i) => (
        <Space size={2}>
          <Tooltip title={t('results.action.preview')}>
            <Button type="text" size="small" icon={<EyeOutlined />} onClick={() => setOpen(i)} aria-label={t('results.action.preview')} />
          </Tooltip>
          <Tooltip title={t('results.action.download')}>
            <a href={r.url} download={r.file_name} aria-label={t('results.action.download')}>
              <Button type="text" size="small" icon={<DownloadOutlined />} tabIndex={-1} />
            </a>
          </Tooltip>
          <Tooltip title={t('results.action.delete')}>
            <Button type="text" size="small" danger icon={<DeleteOutlined />} onClick={() => confirmDelete([r])} aria-label={t('results.action.delete')} data-testid="result-delete" />
          </Tooltip>
        </Space>
      ),
    },
  ];


  const galleryLink = `/resultsShow?${writeResultFilter({ ...EMPTY_RESULT_FILTER, ...filter, page: 0 }).toString()}`;
  const sortieName = filter.sortId ? (sortieNames.get(filter.sortId) ?? null) : null;

  return (
    <ResultsScreen
      testId="results-list"
      title={t('results.listTitle')}
      filters={
        <ResultFilterBar
          filter={filter}
          onChange={setFilter}
          devices={devices}
          onRefresh={shown.reload}
          sortieName={sortieName}
          extra={
            <Segmented
              value={view}
              onChange={(v) => setParam('view', v === 'map' ? 'map' : null)}
              options={[
                { value: 'table', label: <span data-testid="results-view-table"><TableOutlined /> {t('results.view.table')}</span> },
                { value: 'map', label: <span data-testid="results-view-map"><EnvironmentOutlined /> {t('results.view.map')}</span> },
              ]}
            />
          }
        />
      }
    >
      {holder}
      {view === 'table' ? (
        <>
          <div className="results-toolbar">
            <Space wrap>
              {selected.length > 0 && <span className="results-selected-count">{t('results.action.selected', { count: selected.length })}</span>}
              <Link to={galleryLink}>
                <Button type="link" icon={<AppstoreOutlined />}>
                  {t('results.view.gallery')}
                </Button>
              </Link>
            </Space>
            <Space wrap>
              <SelectionButtons selected={selected} zip={zip} onDelete={() => confirmDelete(table.list.filter((r) => selected.includes(r.id)))} />
            </Space>
          </div>
          <div className="results-body">
            {table.failed && table.list.length === 0 ? (
              <RetryAlert message={t('results.msg.loadFailed')} onRetry={table.reload} />
            ) : (
              <Table<ResultItem>
                data-testid="results-table"
                rowKey="id"
                size="middle"
                columns={columns}
                dataSource={table.list}
                loading={table.loading}
                onRow={(r) => ({ 'data-testid': 'result-row', 'data-id': r.id, 'data-type': r.type })}
                rowSelection={{
                  selectedRowKeys: selected,
                  onChange: (keys) => setSelected(keys as string[]),
                  getCheckboxProps: () => ({ 'data-testid': 'result-select' }),
                }}
                locale={{ emptyText: !isFiltered(filter) ? t('results.msg.empty') : t('results.msg.emptyFiltered') }}
                pagination={{
                  current: filter.page + 1,
                  pageSize: LIST_PAGE_SIZE,
                  total: table.total,
                  showSizeChanger: false,
                  showTotal: (n) => t('results.msg.total', { count: n }),
                  onChange: (p) => setFilter({ page: p - 1 }),
                }}
              />
            )}
          </div>
        </>
      ) : (
        <div className="results-map-wrap">
          <div className="results-map-status">
            {located.loading ? <Spin size="small" /> : t('results.msg.mapCount', { count: located.list.length })}
            {located.total > MAP_LIMIT && <span className="results-map-capped">{t('results.msg.mapCapped', { count: MAP_LIMIT })}</span>}
            {!located.loading && located.list.length === 0 && <span data-testid="results-empty">{t('results.msg.noLocated')}</span>}
          </div>
          <Suspense fallback={<Spin className="results-state" />}>
            <ResultMap items={located.list} theme={theme} onOpen={setOpen} />
          </Suspense>
        </div>
      )}
      {preview}
    </ResultsScreen>
  );
}
