/**
 * Texts of the collaboration-group screen (merged into the catalogs under `coordination`). Both languages
 * keep the same keys: the English object is typed by the Chinese one, and the catalog test compares them.
 */
export const coordinationZh = {
  title: '协同分组',
  searchPlaceholder: '分组名称或备注',
  empty: '暂无协同分组',
  about: '分组成员（可以是其他公司的用户）可在地图和设备列表中查看分组内的设备及其实时状态，但不能连接或控制这些设备。',
  col: {
    name: '分组名称',
    devices: '设备数',
    online: '在线设备',
    members: '成员',
    creator: '创建人',
    company: '所属公司',
  },
  noMembers: '无成员',
  details: '详情',
  deviceStatus: '设备状态',
  membersTitle: '成员',
  form: {
    addTitle: '新增协同分组',
    editTitle: '编辑协同分组',
    name: '分组名称',
    devices: '设备',
    devicesHint: '至少选择一台设备；一个分组只包含同一公司的设备',
    members: '成员',
    membersHint: '成员可查看分组内的设备，不能控制',
    membersNoList: '您没有查看用户列表的权限，现有成员保持不变',
    notes: '备注',
    needDevice: '请至少选择一台设备',
  },
};

export const coordinationEn: typeof coordinationZh = {
  title: 'Collaboration groups',
  searchPlaceholder: 'Group name or notes',
  empty: 'No collaboration groups',
  about:
    "Members of a group (users of other companies too) see the group's devices and their live status on their map and device list; they cannot connect to or control them.",
  col: {
    name: 'Group name',
    devices: 'Devices',
    online: 'Online',
    members: 'Members',
    creator: 'Created by',
    company: 'Company',
  },
  noMembers: 'No members',
  details: 'Details',
  deviceStatus: 'Device status',
  membersTitle: 'Members',
  form: {
    addTitle: 'Add a collaboration group',
    editTitle: 'Edit the collaboration group',
    name: 'Group name',
    devices: 'Devices',
    devicesHint: "At least one device; a group holds one company's devices",
    members: 'Members',
    membersHint: 'Members see the devices of the group, without control',
    membersNoList: 'You may not list users: the current members are kept',
    notes: 'Notes',
    needDevice: 'Choose at least one device',
  },
};
