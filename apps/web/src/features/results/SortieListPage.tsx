import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Badge, Button, Modal, Space, Table, Tooltip, type TableColumnsType } from 'antd';
import { DeleteOutlined, PictureOutlined, PlayCircleOutlined, ClearOutlined } from '@ant-design/icons';
import { formatDateTime, MissionType, formatDistanceText, formatHms, type Sortie } from '@nest/contracts';
import { columnsWidth, useCallPage, useDeviceList } from '../../shared/admin';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { call } from '../../shared/request';
import { ORDER_COLUMN, SORTIE_PAGE_SIZES, pruneSelection, readSortieFilter, sortieDuration, sorterToOrder, sortiesListFields, writeSortieFilter, type SortieFilter } from './query';
import { ChoiceFilter, DayRange, DeviceFilter, KeywordInput, RefreshButton, ResultsScreen, RetryAlert } from './shared';
import './results.css';

const timeText = (s: number, lang: 'zh' | 'en') => (s > 0 ? formatDateTime(s * 1000, lang) : '--');

/** Re-renders every second while something on screen is still flying (its duration runs). */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now() / 1000);
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => setNow(Date.now() / 1000), 1000);
    return () => clearInterval(id);
  }, [active]);
  return now;
}

/** achievementAdmin: the sorties with paging, filters, server-side sorting and their actions. */
export default function SortieListPage(): ReactNode {
  const { t, lang } = useI18n();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => readSortieFilter(params), [params]);
  const setFilter = useCallback(
    (next: Partial<SortieFilter>) => setParams((prev) => writeSortieFilter({ ...readSortieFilter(prev), page: 0, ...next })),
    [setParams],
  );
  const devices = useDeviceList();
  const [modal, holder] = Modal.useModal();
  const sorties = useCallPage('sortiesList', sortiesListFields(filter));
  const data = { list: sorties.rows, total: sorties.total };
  const { loading, failed } = sorties;
  const reload = () => void sorties.reload();
  const [selected, setSelected] = useState<string[]>([]);
  useEffect(() => setSelected((s) => pruneSelection(s, data.list.map((x) => x.sort_id))), [data.list]);

  const now = useNow(data.list.some((s) => s.end_time <= 0));
  const name = (s: Sortie) => s.mission_name || MissionType.label(s.mission_type, lang);

  // The dialog's handle is thenable (it settles on close); nothing waits for it.
  const confirm = (title: string, content: string, run: () => Promise<void>): void => {
    void modal.confirm({
      title,
      content,
      okText: t('results.confirm.ok'),
      cancelText: t('results.confirm.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-ok' },
      onOk: run,
    });
  };

  const deleteSorties = (rows: Sortie[]) =>
    confirm(
      rows.length === 1 ? t('results.sortie.deleteTitle', { name: name(rows[0]!) }) : t('results.sortie.deleteManyTitle', { count: rows.length }),
      t('results.sortie.deleteBody'),
      async () => {
        const ids = rows.map((r) => r.sort_id);
        await call('sortiesDelete', { ids });
        notify().success(t('results.sortie.deleted', { count: ids.length }));
        setSelected((s) => s.filter((x) => !ids.includes(x)));
        if (ids.length >= data.list.length && filter.page > 0) setFilter({ page: filter.page - 1 });
        else reload();
      },
    );

  const deleteResults = (s: Sortie) =>
    confirm(t('results.sortie.deleteResultsTitle', { name: name(s), count: s.count }), t('results.sortie.deleteResultsBody'), async () => {
      await call('resultDeleteSort', { sort_id: s.sort_id });
      notify().success(t('results.sortie.resultsDeleted'));
      reload();
    });

  const sortOrder = (col: string) => (ORDER_COLUMN[filter.order] === col ? (filter.asc ? 'ascend' : 'descend') : null);
  const columns: TableColumnsType<Sortie> = [
    {
      key: 'route',
      title: t('results.sortie.route'),
      ellipsis: true,
      render: (_, s) => (
        <span title={s.mission_name}>
          {s.mission_name || <span className="results-muted">{t('results.sortie.oneKey')}</span>}
          {s.mission_id && <span className="results-muted results-route-type"> · {MissionType.label(s.mission_type, lang)}</span>}
        </span>
      ),
    },
    { key: 'device', title: t('results.sortie.device'), ellipsis: true, render: (_, s) => s.device_name || s.sn_id },
    { key: 'user', title: t('results.sortie.user'), ellipsis: true, width: 120, render: (_, s) => s.user_name || '--' },
    { key: 'start', title: t('results.sortie.start'), width: 180, sorter: true, sortOrder: sortOrder('start'), sortDirections: ['descend', 'ascend'], render: (_, s) => timeText(s.start_time, lang) },
    {
      key: 'end',
      title: t('results.sortie.end'),
      width: 180,
      render: (_, s) => (s.end_time > 0 ? timeText(s.end_time, lang) : <Badge status="processing" text={t('results.sortie.inFlight')} />),
    },
    {
      key: 'duration',
      title: t('results.sortie.duration'),
      width: 120,
      sorter: true,
      sortOrder: sortOrder('duration'),
      sortDirections: ['descend', 'ascend'],
      render: (_, s) => <span className="results-num">{formatHms(sortieDuration(s, now))}</span>,
    },
    {
      key: 'distance',
      title: t('results.sortie.distance'),
      width: 120,
      align: 'right',
      sorter: true,
      sortOrder: sortOrder('distance'),
      sortDirections: ['descend', 'ascend'],
      render: (_, s) => <span className="results-num">{formatDistanceText(s.distance)}</span>,
    },
    {
      key: 'count',
      title: t('results.sortie.results'),
      width: 96,
      align: 'right',
      sorter: true,
      sortOrder: sortOrder('count'),
      sortDirections: ['descend', 'ascend'],
      render: (_, s) => <span className="results-num">{s.count}</span>,
    },
    {
      key: 'actions',
      title: t('results.sortie.actions'),
      width: 300,
      render: (_, s) => (
        <Space size={0} wrap>
          <Button type="link" size="small" icon={<PictureOutlined />} onClick={() => void navigate(`/resultsShow?sort_id=${encodeURIComponent(s.sort_id)}`)} data-testid="sortie-results">
            {t('results.sortie.openResults')}
          </Button>
          <Button type="link" size="small" icon={<PlayCircleOutlined />} onClick={() => void navigate(`/routeReplay?sort_id=${encodeURIComponent(s.sort_id)}`)} data-testid="sortie-replay">
            {t('results.sortie.replay')}
          </Button>
          <Tooltip title={s.count === 0 ? t('results.msg.empty') : undefined}>
            <Button type="link" size="small" danger icon={<ClearOutlined />} disabled={s.count === 0} onClick={() => deleteResults(s)} data-testid="sortie-delete-results">
              {t('results.sortie.deleteResults')}
            </Button>
          </Tooltip>
          <Button type="link" size="small" danger icon={<DeleteOutlined />} disabled={s.end_time <= 0} onClick={() => deleteSorties([s])} data-testid="sortie-delete">
            {t('results.sortie.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <ResultsScreen
      testId="sortie-list"
      title={t('results.sortiesTitle')}
      filters={
        <div className="results-filters">
          <DeviceFilter value={filter.sn} devices={devices} onChange={(sn) => setFilter({ sn })} />
          <ChoiceFilter
            testId="filter-route-type"
            placeholder={t('results.filter.allRouteTypes')}
            value={filter.missionType}
            options={MissionType.options(lang)}
            onChange={(missionType) => setFilter({ missionType })}
            width={160}
          />
          <DayRange from={filter.from} to={filter.to} onChange={(from, to) => setFilter({ from, to })} />
          <KeywordInput value={filter.search} placeholder={t('results.filter.sortieKeyword')} onSearch={(search) => setFilter({ search })} />
          <RefreshButton onRefresh={reload} />
        </div>
      }
    >
      {holder}
      <div className="results-toolbar">
        <Space>{selected.length > 0 && <span className="results-selected-count">{t('results.action.selected', { count: selected.length })}</span>}</Space>
        <Button danger icon={<DeleteOutlined />} disabled={selected.length === 0} onClick={() => deleteSorties(data.list.filter((s) => selected.includes(s.sort_id)))} data-testid="sorties-delete-selected">
          {t('results.action.deleteSelected')}
        </Button>
      </div>
      <div className="results-body">
        {failed && data.list.length === 0 ? (
          <RetryAlert message={t('results.sortie.loadFailed')} onRetry={reload} />
        ) : (
          <Table<Sortie>
            data-testid="sortie-table"
            rowKey="sort_id"
            size="middle"
            columns={columns}
            dataSource={data.list}
            loading={loading}
            scroll={{ x: columnsWidth(columns) }}
            onRow={(s) => ({ 'data-testid': 'sortie-row', 'data-id': s.sort_id })}
            rowSelection={{
              selectedRowKeys: selected,
              onChange: (keys) => setSelected(keys as string[]),
              // A sortie in flight is still being written: it can be deleted once it has landed.
              getCheckboxProps: (s) => ({ disabled: s.end_time <= 0, 'data-testid': 'sortie-select' }),
            }}
            locale={{ emptyText: t('results.sortie.empty') }}
            onChange={(p, _f, sorter) => {
              const one = Array.isArray(sorter) ? sorter[0] : sorter;
              const size = p.pageSize ?? filter.size;
              const sort = sorterToOrder(one?.columnKey, one?.order);
              const sortChanged = sort.order !== filter.order || sort.asc !== filter.asc;
              setFilter({ ...sort, size, page: sortChanged || size !== filter.size ? 0 : (p.current ?? 1) - 1 });
            }}
            pagination={{
              current: filter.page + 1,
              pageSize: filter.size,
              total: data.total,
              showSizeChanger: true,
              pageSizeOptions: SORTIE_PAGE_SIZES.map(String),
              showTotal: (n) => t('results.msg.total', { count: n }),
            }}
          />
        )}
      </div>
    </ResultsScreen>
  );
}
