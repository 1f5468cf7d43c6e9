/**
 * Texts of this feature (merged into the catalogs under `alarms`). Keep both languages with the same keys:
 * the English object is typed by the Chinese one, and the catalog test compares them.
 */
export const alarmsZh = {
  title: '告警',
  total: '共 {n} 条',
  /** The TF card problem of a tf_card alarm's detail. */
  tfCard: {
    missing: '未插卡',
    full: '空间不足',
  },
  center: {
    title: '告警中心',
    pending: '{n} 条待处理',
  },
  filter: {
    level: '级别',
    state: '处理状态',
    kind: '告警类型',
    device: '设备',
  },
  col: {
    level: '级别',
    kind: '告警内容',
    device: '设备',
    raisedAt: '发生时间',
    condition: '状况',
    state: '状态',
    processed: '处理',
  },
  condition: {
    active: '持续中',
    cleared: '已恢复',
  },
  process: {
    one: '处理',
    selected: '标记已处理（{n}）',
    title: '处理告警（{n} 条）',
    note: '处理说明',
    notePlaceholder: '例如：已现场确认，风速回落后继续任务',
    noteRequired: '请填写处理说明',
    noteTooLong: '处理说明不能超过 {n} 个字符',
    submit: '标记已处理',
    done: '已处理 {n} 条告警',
  },
  news: {
    pending: '{n} 条待处理告警',
    none: '暂无待处理告警',
    viewAll: '查看全部',
    highTitle: '高等级告警',
  },
};

export const alarmsEn: typeof alarmsZh = {
  title: 'Alarms',
  total: '{n} in all',
  tfCard: {
    missing: 'no card',
    full: 'almost full',
  },
  center: {
    title: 'Alarm center',
    pending: '{n} pending',
  },
  filter: {
    level: 'Level',
    state: 'State',
    kind: 'Kind',
    device: 'Device',
  },
  col: {
    level: 'Level',
    kind: 'Alarm',
    device: 'Device',
    raisedAt: 'Raised at',
    condition: 'Condition',
    state: 'State',
    processed: 'Processing',
  },
  condition: {
    active: 'Active',
    cleared: 'Cleared',
  },
  process: {
    one: 'Process',
    selected: 'Mark processed ({n})',
    title: 'Process alarms ({n})',
    note: 'Note',
    notePlaceholder: 'e.g. checked on site; the mission continues once the wind drops',
    noteRequired: 'Please write a note',
    noteTooLong: 'The note can have at most {n} characters',
    submit: 'Mark processed',
    done: '{n} alarms processed',
  },
  news: {
    pending: '{n} pending alarms',
    none: 'No pending alarms',
    viewAll: 'View all',
    highTitle: 'High-level alarm',
  },
};
