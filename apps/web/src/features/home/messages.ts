/**
 * Texts of this feature (merged into the catalogs under `home`). Keep both languages with the same keys:
 * the English object is typed by the Chinese one, and the catalog test compares them.
 */
export const homeZh = {
  /** The device list beside the map. */
  list: {
    title: '设备列表',
    online: '在线',
    total: '总数',
    search: '搜索名称或 SN',
    allTypes: '全部类型',
    noDevices: '暂无设备',
    noMatch: '没有符合条件的设备',
    pickDevice: '在地图或列表中选择一台设备，查看实时数据与视频',
    notFound: '未找到设备 {sn}',
  },
  title: '数据大屏',
  loadFailed: '数据加载失败，稍后自动重试',
  noAccess: '无权查看',
  kpi: {
    devices: '设备在线 / 总数',
    flying: '正在飞行',
    sorties: '今日 / 累计架次',
    flightTime: '累计飞行时长',
    distance: '累计巡检里程',
    results: '今日 / 累计成果',
    alarms: '待处理告警',
  },
  records: {
    title: '巡检记录',
    noRoute: '一键起飞',
    flying: '飞行中',
    results: '{n} 个成果',
  },
  ranking: {
    title: '巡检排行',
    /** The unit word of a count in the ranking: attendance in sorties, results in pieces. */
    unit: {
      sorties: '次',
      results: '个',
    },
  },
  alarmStats: {
    title: '告警统计',
    open: '告警中心',
    pending: '待处理',
    processed: '已处理',
    total: '累计',
  },
  tasks: {
    title: '定时任务',
    today: '今天',
    once: '单次',
    every: '每 {n} 分钟',
    everyHours: '每 {n} 小时',
    everyDays: '每 {n} 天',
  },
  messages: {
    title: '实时消息',
    kind: {
      alarm: '告警',
      sortieStart: '起飞',
      sortieEnd: '结束',
    },
  },
};

export const homeEn: typeof homeZh = {
  list: {
    title: 'Devices',
    online: 'online',
    total: 'total',
    search: 'Search name or SN',
    allTypes: 'All types',
    noDevices: 'No devices yet',
    noMatch: 'No device matches the filter',
    pickDevice: 'Select a device on the map or in the list to see its live data and video',
    notFound: 'Device {sn} was not found',
  },
  title: 'Data screen',
  loadFailed: 'Could not load; retrying shortly',
  noAccess: 'Not permitted',
  kpi: {
    devices: 'Devices online / total',
    flying: 'Flying now',
    sorties: 'Sorties today / total',
    flightTime: 'Total flight time',
    distance: 'Total mileage',
    results: 'Results today / total',
    alarms: 'Pending alarms',
  },
  records: {
    title: 'Inspection records',
    noRoute: 'One-key flight',
    flying: 'Flying',
    results: '{n} results',
  },
  ranking: {
    title: 'Inspection ranking',
    unit: {
      sorties: 'sorties',
      results: 'results',
    },
  },
  alarmStats: {
    title: 'Alarm statistics',
    open: 'Alarm center',
    pending: 'Pending',
    processed: 'Processed',
    total: 'Total',
  },
  tasks: {
    title: 'Timed tasks',
    today: 'Today',
    once: 'Once',
    every: 'Every {n} min',
    everyHours: 'Every {n} h',
    everyDays: 'Every {n} d',
  },
  messages: {
    title: 'Real-time messages',
    kind: {
      alarm: 'Alarm',
      sortieStart: 'Takeoff',
      sortieEnd: 'Ended',
    },
  },
};
