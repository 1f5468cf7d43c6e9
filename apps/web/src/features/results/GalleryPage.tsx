import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, Checkbox, Empty, Pagination, Result, Space, Spin } from 'antd';
import { PictureOutlined, PlayCircleFilled, GlobalOutlined } from '@ant-design/icons';
import { formatMmSs, type ResultItem } from '@nest/contracts';
import { useDeviceList } from '../../shared/admin';
import { useI18n } from '../../shared/i18n';
import { isFiltered, pruneSelection, toggleAll, toggleSelection } from './query';
import { ResultFilterBar, ResultsScreen, takenAtText, TypeBadge, useResultFilter } from './shared';
import { SelectionButtons, useResultBrowsing } from './useResultActions';
import { useResults, useSortieNames } from './useResults';
import './results.css';

export const GALLERY_PAGE_SIZE = 48;

function ResultCard({ item, selected, onSelect, onOpen }: { item: ResultItem; selected: boolean; onSelect: (on: boolean) => void; onOpen: () => void }): ReactNode {
  const { lang } = useI18n();
  const [broken, setBroken] = useState(false);
  return (
    <li className={`result-card ${selected ? 'is-selected' : ''}`} data-testid="result-card" data-id={item.id} data-type={item.type}>
      <button type="button" className="result-card-thumb" onClick={onOpen} aria-label={item.file_name}>
        {item.thumb_url && !broken ? (
          <img src={item.thumb_url} alt="" loading="lazy" onError={() => setBroken(true)} />
        ) : (
          <span className="result-card-nothumb">
            <PictureOutlined />
          </span>
        )}
        {item.type === 20 && (
          <span className="result-card-play">
            <PlayCircleFilled />
          </span>
        )}
        {item.type === 15 && (
          <span className="result-card-play result-card-pano">
            <GlobalOutlined />
          </span>
        )}
        {item.type === 20 && item.duration ? <span className="result-card-duration" data-testid="result-duration">{formatMmSs(item.duration)}</span> : null}
      </button>
      <div className="result-card-badge">
        <TypeBadge type={item.type} />
      </div>
      <Checkbox className="result-card-check" data-testid="result-select" checked={selected} onChange={(e) => onSelect(e.target.checked)} />
      <div className="result-card-meta">
        <div className="result-card-name" title={item.file_name}>
          {item.file_name}
        </div>
        <div className="result-card-sub">
          <span title={item.device_name || item.sn_id}>{item.device_name || item.sn_id}</span>
          <span>{takenAtText(item, lang)}</span>
        </div>
      </div>
    </li>
  );
}

/** resultsShow: the results as a thumbnail grid with selection, bulk delete / zip and the preview dialog. */
export default function GalleryPage(): ReactNode {
  const { t } = useI18n();
  const [filter, setFilter] = useResultFilter();
  const devices = useDeviceList();
  const sortieNames = useSortieNames();
  const sortieName = filter.sortId ? (sortieNames.get(filter.sortId) ?? null) : null;
  const results = useResults(filter, GALLERY_PAGE_SIZE);
  const { confirmDelete, zip, holder, selected, setSelected, setOpen, preview } = useResultBrowsing(results, true, filter, setFilter, sortieNames);

  const ids = useMemo(() => results.list.map((r) => r.id), [results.list]);
  useEffect(() => setSelected((s) => pruneSelection(s, ids)), [ids, setSelected]);

  const selectedItems = results.list.filter((r) => selected.includes(r.id));
  const allShown = ids.length > 0 && ids.every((id) => selected.includes(id));
  const filtered = isFiltered(filter);


  let body: ReactNode;
  if (results.failed && results.list.length === 0)
    body = (
      <Result
        status="warning"
        title={t('results.msg.loadFailed')}
        extra={
          <Button onClick={results.reload} data-testid="results-retry">
            {t('results.msg.retry')}
          </Button>
        }
      />
    );
  else if (!results.loading && results.list.length === 0)
    body = (
      <div className="results-state" data-testid="results-empty">
        <Empty description={filtered ? t('results.msg.emptyFiltered') : t('results.msg.empty')} />
      </div>
    );
  else
    body = (
      <Spin spinning={results.loading}>
        <ul className="result-grid" data-testid="result-grid">
          {results.list.map((r, i) => (
            <ResultCard key={r.id} item={r} selected={selected.includes(r.id)} onSelect={(on) => setSelected((s) => toggleSelection(s, r.id, on))} onOpen={() => setOpen(i)} />
          ))}
        </ul>
      </Spin>
    );

  return (
    <ResultsScreen
      testId="results-gallery"
      title={t('results.galleryTitle')}
      filters={
        <ResultFilterBar filter={filter} onChange={setFilter} devices={devices} onRefresh={results.reload} sortieName={sortieName} />
      }
    >
      {holder}
      <div className="results-toolbar">
        <Space wrap>
          <Checkbox checked={allShown} indeterminate={!allShown && selected.length > 0} disabled={ids.length === 0} onChange={() => setSelected((s) => toggleAll(s, ids))} data-testid="results-select-all">
            {t('results.action.selectAll')}
          </Checkbox>
          {selected.length > 0 && <span className="results-selected-count">{t('results.action.selected', { count: selected.length })}</span>}
          {selected.length > 0 && (
            <Button type="link" size="small" onClick={() => setSelected([])}>
              {t('results.action.clearSelection')}
            </Button>
          )}
        </Space>
        <Space wrap>
          <span className="results-total" data-testid="results-total" data-value={results.total}>
            {t('results.msg.total', { count: results.total })}
          </span>
          <SelectionButtons selected={selected} zip={zip} onDelete={() => confirmDelete(selectedItems)} />
        </Space>
      </div>
      <div className="results-body">{body}</div>
      {results.total > GALLERY_PAGE_SIZE && (
        <div className="results-pager">
          <Pagination
            current={filter.page + 1}
            pageSize={GALLERY_PAGE_SIZE}
            total={results.total}
            showSizeChanger={false}
            onChange={(p) => setFilter({ page: p - 1 })}
          />
        </div>
      )}
      {preview}
    </ResultsScreen>
  );
}
