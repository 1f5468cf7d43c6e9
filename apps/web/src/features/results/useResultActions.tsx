import { useCallback } from 'react';
import { Modal } from 'antd';
import type { ResultItem } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { call } from '../../shared/request';
import { downloadUrl } from './shared';
import { formatBytes } from './query';

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
      downloadUrl(z.url);
    },
    [t],
  );

  return { confirmDelete, zip, holder, modal };
}
