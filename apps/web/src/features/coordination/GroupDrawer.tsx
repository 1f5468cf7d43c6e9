import { useEffect, useState, type ReactNode } from 'react';
import { Badge, Descriptions, Drawer, Empty, List, Spin, Tag } from 'antd';
import { Company, DeviceCategory, OnlineStatus, type CollaborationGroup } from '@nest/contracts';
import { formatSeconds } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { call } from '../../shared/request';
import { onlineCount } from './groups';

const STATUS_BADGE = { 1: 'success', 2: 'default', 3: 'warning' } as const;

/** Details of a group (/com/getOne): its devices with their live status (push updates over the server's), members. */
export function GroupDrawer({
  groupId,
  liveState,
  onClose,
}: {
  groupId: string | null;
  liveState: (sn: string) => number | undefined;
  onClose: () => void;
}): ReactNode {
  const { t, lang } = useI18n();
  const [group, setGroup] = useState<CollaborationGroup | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (!groupId) return;
    let live = true;
    setLoading(true);
    setGroup(null);
    call('comGetOne', { id: groupId })
      .then((g) => live && setGroup(g))
      .catch(() => live && onClose())
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [groupId, onClose]);

  const companyLabel = (c: string) => (Company.has(c) ? Company.label(c, lang) : c);

  return (
    <Drawer open={groupId !== null} onClose={onClose} width={520} title={group?.name ?? t('coordination.details')} destroyOnHidden data-testid="group-drawer">
      {loading || !group ? (
        <div className="group-drawer-state">
          <Spin />
        </div>
      ) : (
        <>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('coordination.col.company')}>{companyLabel(group.company)}</Descriptions.Item>
            <Descriptions.Item label={t('coordination.col.creator')}>{group.creator || '--'}</Descriptions.Item>
            <Descriptions.Item label={t('admin.createTime')}>{formatSeconds(group.create_time)}</Descriptions.Item>
            <Descriptions.Item label={t('coordination.col.online')}>
              {onlineCount(group, liveState)} / {group.device_count}
            </Descriptions.Item>
            <Descriptions.Item label={t('admin.notes')}>{group.notes || '--'}</Descriptions.Item>
          </Descriptions>
          <h4 className="group-drawer-title">{t('coordination.deviceStatus')}</h4>
          <List
            size="small"
            bordered
            dataSource={group.devices ?? []}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
            renderItem={(d) => {
              const state = (liveState(d.sn_id) ?? d.state) as 1 | 2 | 3;
              return (
                <List.Item data-testid={`group-device-${d.sn_id}`}>
                  <List.Item.Meta title={d.name} description={`${d.sn_id} · ${DeviceCategory.label(d.type, lang)}`} />
                  <Badge status={STATUS_BADGE[state]} text={OnlineStatus.label(state, lang)} />
                </List.Item>
              );
            }}
          />
          <h4 className="group-drawer-title">{t('coordination.membersTitle')}</h4>
          {group.users.length === 0 ? (
            <span className="group-muted">{t('coordination.noMembers')}</span>
          ) : (
            <div className="group-members">
              {group.users.map((u) => (
                <Tag key={u.u_id}>
                  {u.nick}
                  {u.company !== group.company ? ` · ${companyLabel(u.company)}` : ''}
                </Tag>
              ))}
            </div>
          )}
        </>
      )}
    </Drawer>
  );
}
