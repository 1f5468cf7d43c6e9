import type { ComponentType } from 'react';
import AppstoreOutlined from '@ant-design/icons/AppstoreOutlined';
import BulbOutlined from '@ant-design/icons/BulbOutlined';
import ClusterOutlined from '@ant-design/icons/ClusterOutlined';
import DashboardOutlined from '@ant-design/icons/DashboardOutlined';
import NodeIndexOutlined from '@ant-design/icons/NodeIndexOutlined';
import PictureOutlined from '@ant-design/icons/PictureOutlined';
import PlayCircleOutlined from '@ant-design/icons/PlayCircleOutlined';
import SettingOutlined from '@ant-design/icons/SettingOutlined';

/** Menu `meta.icon` names to icons (per-icon imports keep the bundle small). */
const ICONS: Readonly<Record<string, ComponentType>> = {
  dashboard: DashboardOutlined,
  route: NodeIndexOutlined,
  picture: PictureOutlined,
  equipment: ClusterOutlined,
  solution: BulbOutlined,
  setting: SettingOutlined,
  video: PlayCircleOutlined,
};

export function MenuIcon({ name }: { name?: string }) {
  const Icon = (name && ICONS[name]) || AppstoreOutlined;
  return <Icon />;
}
