/**
 * Texts of the device-type screen (merged into the catalogs under `deviceType`). Both languages with the
 * same keys: the English object is typed by the Chinese one, and the catalog test compares them.
 */
export const deviceTypeZh = {
  title: '设备类型',
  globalHint: '设备类型是全平台共用的目录，修改对所有公司生效。',
  searchPlaceholder: '名称、键值或备注',
  allKinds: '全部类别',
  allStates: '全部状态',
  empty: '暂无设备类型',
  col: {
    claType: '设备类别',
    claName: '名称',
    value: '键值',
    stream: '视频流',
  },
  form: {
    addTitle: '新增设备类型',
    editTitle: '编辑设备类型：{name}',
    claType: '设备类别',
    claName: '名称',
    value: '键值',
    valueHint: '同一类别下唯一，字母、数字、_ 或 -',
    valuePattern: '键值只能包含字母、数字、_ 和 -',
    stream: '视频流路数',
    enabled: '启用',
    notes: '备注',
  },
  confirmDisable: '确定停用“{name}”吗？停用后选择设备类型时不再出现。',
  confirmEnable: '确定启用“{name}”吗？',
  enabledDone: '已启用',
  disabledDone: '已停用',
};

export const deviceTypeEn: typeof deviceTypeZh = {
  title: 'Device types',
  globalHint: 'Device types are one catalogue for the whole platform: changes apply to every company.',
  searchPlaceholder: 'Name, key or notes',
  allKinds: 'All kinds',
  allStates: 'All states',
  empty: 'No device types',
  col: {
    claType: 'Device kind',
    claName: 'Name',
    value: 'Key',
    stream: 'Video streams',
  },
  form: {
    addTitle: 'Add a device type',
    editTitle: 'Edit device type: {name}',
    claType: 'Device kind',
    claName: 'Name',
    value: 'Key',
    valueHint: 'Unique within the kind; letters, digits, _ or -',
    valuePattern: 'The key may hold letters, digits, _ and - only',
    stream: 'Video streams',
    enabled: 'Enabled',
    notes: 'Notes',
  },
  confirmDisable: 'Disable "{name}"? It is no longer offered when a device type is chosen.',
  confirmEnable: 'Enable "{name}"?',
  enabledDone: 'Enabled',
  disabledDone: 'Disabled',
};
