import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Alert, Button, DatePicker, Input, Select, Tag, Tooltip } from 'antd';
import { CloseOutlined, ReloadOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { formatDateTime, AchievementType, type DeviceListItem, type ResultItem } from '@nest/contracts';
import { DeviceSelect } from '../../shared/admin';
import { PICKER_FORMATS } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { readResultFilter, writeResultFilter, type ResultFilter } from './query';


/** The result filter as the URL holds it; changing any filter goes back to the first page. */
export function useResultFilter(): [ResultFilter, (next: Partial<ResultFilter>) => void, URLSearchParams, (k: string, v: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => readResultFilter(params), [params]);
  const update = useCallback(
    (next: Partial<ResultFilter>) => {
      setParams((prev) => writeResultFilter({ ...readResultFilter(prev), page: 0, ...next }, prev));
    },
    [setParams],
  );
  const setParam = useCallback(
    (k: string, v: string | null) =>
      setParams((prev) => {
        const q = new URLSearchParams(prev);
        if (v === null) q.delete(k);
        else q.set(k, v);
        return q;
      }),
    [setParams],
  );
  return [filter, update, params, setParam];
}

/** Keyword box that sends on Enter / search click and follows URL changes (back button). */
function KeywordInput({ value, placeholder, onSearch }: { value: string; placeholder: string; onSearch: (v: string) => void }): ReactNode {
  const [draft, setDraft] = useState(value);
  const last = useRef(value);
  if (last.current !== value) {
    last.current = value;
    setDraft(value);
  }
  return (
    <Input.Search
      data-testid="filter-search"
      allowClear
      value={draft}
      maxLength={64}
      placeholder={placeholder}
      onChange={(e) => setDraft(e.target.value)}
      onSearch={(v) => onSearch(v.trim())}
      style={{ width: 220 }}
    />
  );
}

export interface DayRangeProps {
  from: string | null;
  to: string | null;
  onChange: (from: string | null, to: string | null) => void;
}

export function DayRange({ from, to, onChange }: DayRangeProps): ReactNode {
  const { lang } = useI18n();
  return (
    <DatePicker.RangePicker
      data-testid="filter-range"
      format={PICKER_FORMATS[lang].date}
      allowEmpty={[true, true]}
      value={[from ? dayjs(from) : null, to ? dayjs(to) : null]}
      onChange={(v) => onChange(v?.[0]?.format('YYYY-MM-DD') ?? null, v?.[1]?.format('YYYY-MM-DD') ?? null)}
      disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
    />
  );
}

export interface ResultFilterBarProps {
  filter: ResultFilter;
  onChange: (next: Partial<ResultFilter>) => void;
  devices: readonly DeviceListItem[];
  onRefresh: () => void;
  /** Sortie name shown on the sortie chip, when known. */
  sortieName?: string | null;
  extra?: ReactNode;
}

/** Type, device, sortie (from ?sort_id=), day range and keyword filters; all live in the URL. */
export function ResultFilterBar({ filter, onChange, devices, onRefresh, sortieName, extra }: ResultFilterBarProps): ReactNode {
  const { t, lang } = useI18n();
  return (
    <div className="results-filters" data-testid="results-filters">
      <ChoiceFilter
        testId="filter-type"
        placeholder={t('results.filter.allTypes')}
        value={filter.type}
        options={AchievementType.options(lang)}
        onChange={(type) => onChange({ type })}
        width={130}
        ariaLabel={t('results.filter.type')}
      />
      <DeviceFilter value={filter.sn} devices={devices} onChange={(sn) => onChange({ sn })} />
      {filter.sortId && (
        <Tag className="results-sortie-chip" data-testid="filter-sortie" closable closeIcon={<Tooltip title={t('results.filter.clearSortie')}><CloseOutlined /></Tooltip>} onClose={() => onChange({ sortId: null })}>
          {t('results.filter.sortie')}: {sortieName || filter.sortId}
        </Tag>
      )}
      <DayRange from={filter.from} to={filter.to} onChange={(from, to) => onChange({ from, to })} />
      <KeywordInput value={filter.search} placeholder={t('results.filter.keyword')} onSearch={(search) => onChange({ search })} />
      <RefreshButton onRefresh={onRefresh} />
      {extra}
    </div>
  );
}

export { KeywordInput };

/** A filter among an enumeration's values (a result's type, a route's type); cleared, it filters on none (null). */
export function ChoiceFilter({
  testId,
  placeholder,
  value,
  options,
  onChange,
  width,
  ariaLabel,
}: {
  testId: string;
  placeholder: string;
  value: number | null;
  options: readonly { value: number; label: string }[];
  onChange: (value: number | null) => void;
  width: number;
  ariaLabel?: string;
}): ReactNode {
  return (
    <Select
      data-testid={testId}
      allowClear
      placeholder={placeholder}
      value={value ?? undefined}
      options={[...options]}
      onChange={(v: number | undefined) => onChange(v ?? null)}
      style={{ width }}
      aria-label={ariaLabel}
    />
  );
}

/** Label of a result's type, coloured by kind. */
export function TypeBadge({ type }: { type: number }): ReactNode {
  const { lang } = useI18n();
  const color = type === AchievementType.VIDEO ? 'magenta' : type === AchievementType.PANORAMA ? 'geekblue' : 'cyan';
  return (
    <Tag color={color} className="result-type-badge" data-testid="result-type">
      {AchievementType.label(type, lang)}
    </Tag>
  );
}

/** Local time of a result (taken_at ms). */
export function takenAtText(r: Pick<ResultItem, 'taken_at'>, lang: 'zh' | 'en'): string {
  return r.taken_at > 0 ? formatDateTime(r.taken_at, lang) : '--';
}

/** The device filter of the achievements screens (all devices when cleared). */
export function DeviceFilter({ value, devices, onChange }: { value: string | null; devices: readonly DeviceListItem[]; onChange: (sn: string | null) => void }): ReactNode {
  const { t } = useI18n();
  return (
    <DeviceSelect
      devices={devices}
      value={value}
      onChange={onChange}
      placeholder={t('results.filter.allDevices')}
      width={180}
      testId="filter-device"
      ariaLabel={t('results.filter.device')}
      showSn={false}
    />
  );
}

export interface ResultsScreenProps {
  testId: string;
  title: string;
  /** The filters beside the title. */
  filters: ReactNode;
  children: ReactNode;
}

/** The frame of the result and sortie screens: the title with the filters, then the screen's body. */
export function ResultsScreen({ testId, title, filters, children }: ResultsScreenProps): ReactNode {
  return (
    <div className="results-screen" data-testid={testId}>
      <div className="results-head">
        <h1>{title}</h1>
        {filters}
      </div>
      {children}
    </div>
  );
}

/** A list that could not be read, with a retry. */
export function RetryAlert({ message, onRetry }: { message: string; onRetry: () => void }): ReactNode {
  const { t } = useI18n();
  return (
    <Alert
      type="warning"
      showIcon
      message={message}
      action={
        <Button size="small" onClick={onRetry}>
          {t('results.msg.retry')}
        </Button>
      }
    />
  );
}

/** Reads the screen's list again. */
export function RefreshButton({ onRefresh }: { onRefresh: () => void }): ReactNode {
  const { t } = useI18n();
  return (
    <Tooltip title={t('results.filter.refresh')}>
      <Button icon={<ReloadOutlined />} onClick={onRefresh} aria-label={t('results.filter.refresh')} />
    </Tooltip>
  );
}
