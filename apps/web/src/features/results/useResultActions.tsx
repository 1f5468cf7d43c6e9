import { useCallback, useState, type ReactNode } from 'react';
import { Button, Modal } from 'antd';
import { CloudDownloadOutlined, DeleteOutlined } from '@ant-design/icons';
import type { ResultItem } from '@nest/contracts';
import { saveUrl } from '../../shared/dialogs';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { call } from '../../shared/request';
import { formatBytes, type ResultFilter } from './query';
import { ResultPreview } from './ResultPreview';
import type { ResultsState } from './useResults';

/**
 * Delete (after confirmation) and zip actions on results; `onChanged` runs after a deletion that went
 * through. The modal holder must be rendered by the screen (theme and language context).
 */
export function useResultActions(onChanged: (deletedIds: string[]) => void) {
  const { t } = useI18n();
  const [modal, holder] = Modal.useModal();

  const confirmDelete = useCallback(
    (items: readonly Pick<ResultItem, 'id' | 'file_name'>[]) => {
      if (items.length === 0) return;
      const one = items.length === 1;
      modal.confirm({
        title: one ? t('results.confirm.deleteOneTitle') : t('results.confirm.deleteManyTitle', { count: items.length }),
        content: one ? t('results.confirm.deleteOneBody', { name: items[0]!.file_name }) : t('results.confirm.deleteManyBody'),
        okText: t('results.confirm.ok'),
        cancelText: t('results.confirm.cancel'),
        okButtonProps: { danger: true, 'data-testid': 'confirm-ok' },
        onOk: async () => {
          const ids = items.map((r) => r.id);
          if (one) await call('resultDeleteOne', { id: ids[0]! });
          else await call('resultDeleteIds', { ids });
          notify().success(t('results.msg.deleted', { count: ids.length }));
          onChanged(ids);
        },
      });
    },
    [modal, t, onChanged],
  );

  const zip = useCallback(
    async (ids: readonly string[]) => {
      if (ids.length === 0) return;
      const z = await call('resultZip', { ids: [...ids] });
      if (!z?.url) {
        notify().error(t('results.msg.zipFailed'));
        return;
      }
      notify().success(t('results.msg.zipReady', { count: z.count, size: formatBytes(z.bytes) }));
      saveUrl('', z.url);
    },
    [t],
  );

  return { confirmDelete, zip, holder, modal };
}

/**
 * The selection and the preview of the results a screen shows, with their actions. A deletion drops the
 * deleted results from the selection and closes the preview; then, when `paged` (the shown list is the
 * filter's page) and the deletion emptied that page, the screen steps back a page, else it reads the list again.
 */
export function useResultBrowsing(
  shown: Pick<ResultsState, 'list' | 'reload'>,
  paged: boolean,
  filter: ResultFilter,
  setFilter: (next: Partial<ResultFilter>) => void,
  sortieNames: ReadonlyMap<string, string>,
) {
  const [selected, setSelected] = useState<string[]>([]);
  const [open, setOpen] = useState(-1);
  const onDeleted = useCallback(
    (gone: string[]) => {
      setSelected((s) => s.filter((id) => !gone.includes(id)));
      setOpen(-1);
      if (paged && gone.length >= shown.list.length && filter.page > 0) setFilter({ page: filter.page - 1 });
      else shown.reload();
    },
    [paged, shown, filter.page, setFilter],
  );
  const actions = useResultActions(onDeleted);
  const preview = <ResultPreview items={shown.list} index={open} onIndex={setOpen} onDelete={(r) => actions.confirmDelete([r])} sortieNames={sortieNames} />;
  return { ...actions, selected, setSelected, setOpen, preview };
}

export interface SelectionButtonsProps {
  /** The selected results' ids. */
  selected: readonly string[];
  zip: (ids: readonly string[]) => Promise<void>;
  /** Asks to delete the selected results. */
  onDelete: () => void;
}

/** Download the selected results as a zip (busy while it is built) and delete them; both off with nothing selected. */
export function SelectionButtons({ selected, zip, onDelete }: SelectionButtonsProps): ReactNode {
  const { t } = useI18n();
  const [zipping, setZipping] = useState(false);
  const doZip = async () => {
    setZipping(true);
    try {
      await zip(selected);
    } catch {
      // The request layer has told the user.
    } finally {
      setZipping(false);
    }
  };
  return (
    <>
      <Button icon={<CloudDownloadOutlined />} disabled={selected.length === 0} loading={zipping} onClick={() => void doZip()} data-testid="results-download-zip">
        {t('results.action.downloadZip')}
      </Button>
      <Button danger icon={<DeleteOutlined />} disabled={selected.length === 0} onClick={onDelete} data-testid="results-delete-selected">
        {t('results.action.deleteSelected')}
      </Button>
    </>
  );
}
