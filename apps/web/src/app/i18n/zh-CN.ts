import { resultsZh } from '../../features/results/messages';
import { userManageZh } from '../../features/userManage/messages';
import { dictDataZh } from '../../features/dictData/messages';
import { teamManageZh } from '../../features/teamManage/messages';
import { deviceTypeZh } from '../../features/deviceType/messages';
import { auditLogZh } from '../../features/auditLog/messages';
import { firmwareZh } from '../../features/firmware/messages';
import { teachingVideosZh } from '../../features/teachingVideos/messages';
import { outLineMapZh } from '../../features/outLineMap/messages';
import { maintenanceZh } from '../../features/equipment/maintenance/messages';
import { googleMapZh } from '../../features/googleMap/messages';
import { networkZh } from '../../features/networkingItem/messages';
import { navigationEnvironmentZh } from '../../features/navigationEnvironment/messages';
import { routeReplayZh } from '../../features/routeReplay/messages';
import { analysisZh } from '../../features/dataAnalyse/messages';
import { alarmsZh } from '../../features/alarms/messages';
import { homeZh } from '../../features/home/messages';
import { loginZh } from '../login/messages';
import { deviceZh } from '../../features/device/messages';
import { fleetZh } from '../../shared/fleet/messages';
import { equipmentZh } from '../../features/equipment/messages';
import { pilotZh } from '../../features/pilot/messages';
import { coordinationZh } from '../../features/coordination/messages';
import { taskManageZh } from '../../features/taskManage/messages';
import { routeplanZh } from '../../features/routeplan';

/**
 * Chinese texts of the screens, dialogs and features; the shell's own texts are in `shared/i18n/shell.ts`.
 * Keys are `feature.area.item`; `en-US.ts` must hold exactly the same keys (a unit test checks).
 * Enumeration labels, result-code texts and menu titles are not here: they come from contracts.
 */
export const zhCN = {
  route: {
    login: '登录',
    layout: '控制台',
    home: '数据大屏',
    routeReplay: '成果回放',
    videoList: '外置相机录像',
    dataAnalyse: '数据分析',
    panorama: '全景展示',
    notFound: '页面不存在',
  },
  admin: {
    search: '搜索',
    searchPlaceholder: '输入关键字搜索',
    add: '新增',
    edit: '编辑',
    delete: '删除',
    recover: '恢复',
    actions: '操作',
    state: '状态',
    notes: '备注',
    createTime: '创建时间',
    modifiedTime: '修改时间',
    total: '共 {total} 条',
    all: '全部',
    saved: '已保存',
    deleted: '已删除',
    confirmDelete: '确定删除“{name}”吗？',
    refresh: '刷新',
    required: '请填写{field}',
    noPermission: '您没有执行此操作的权限',
  },
  coming: {
    badge: '建设中',
    subtitle: '该页面正在建设中',
    description: '此功能模块正在开发，完成后将在此处开放。',
    backHome: '返回首页',
  },
  notFound: {
    description: '您访问的页面不存在或已被移除',
    backHome: '返回首页',
  },
  header: {
    news: {
      label: '消息',
      title: '消息通知',
      empty: '暂无新消息',
    },
    push: {
      label: '实时连接',
      connecting: '连接中',
      open: '已连接',
      closing: '正在断开',
      closed: '未连接',
    },
    user: {
      account: '账号信息',
      info: '查看信息',
      password: '修改密码',
      logout: '退出登录',
    },
    logout: {
      title: '退出登录',
      content: '确定要退出当前账号吗？',
    },
    nav: {
      solutionWarning: '解决方案敬请期待，请联系客服了解',
      openInNewTab: '在新标签页中打开',
    },
  },
  account: {
    title: '账号信息',
    nick: '账号昵称',
    account: '用户账号',
    accountPlaceholder: '手机号或邮箱',
    nickPlaceholder: '请输入账号昵称',
    company: '所属公司',
    startTime: '开始时间',
    endTime: '结束时间',
    nickRequired: '请输入账号昵称',
    accountRequired: '请输入用户手机/邮箱',
    accountFormat: '请输入正确的手机号或邮箱',
    saved: '账号信息已更新',
  },
  info: {
    title: '用户信息',
  },
  password: {
    title: '修改密码',
    old: '原密码',
    new: '新密码',
    confirm: '确认密码',
    oldPlaceholder: '请输入原密码',
    newPlaceholder: '请输入新密码',
    confirmPlaceholder: '请再次输入新密码',
    oldRequired: '请输入原密码',
    newRequired: '请输入新密码',
    confirmRequired: '请再次输入新密码',
    length: '密码长度为 {min} 到 {max} 个字符',
    mismatch: '两次输入的密码不一致',
    submit: '确认修改',
    successTitle: '密码修改成功',
    successContent: '请使用新密码重新登录',
  },
  settings: {
    title: '系统设置',
    language: '语言',
    languageZh: '中文',
    languageEn: 'English',
    theme: '主题',
    themeDefault: '默认',
    themeConcise: '简洁',
    themeDefaultHint: '深色运行控制台',
    themeConciseHint: '明亮简洁界面',
  },
  videoList: {
    title: '外置相机录像',
    device: '选择设备',
    camera: '摄像头',
    start: '开始时间',
    end: '结束时间',
    size: '文件大小',
    play: '播放',
    refresh: '刷新',
    empty: '暂无录像',
    total: '共 {total} 条',
  },
  routeplan: routeplanZh,
  results: resultsZh,
  routeReplay: routeReplayZh,
  analysis: analysisZh,
  alarms: alarmsZh,
  home: homeZh,
  login: loginZh,
  device: deviceZh,
  fleet: fleetZh,
  userManage: userManageZh,
  dictData: dictDataZh,
  teamManage: teamManageZh,
  equipment: equipmentZh,
  pilot: pilotZh,
  maintenance: maintenanceZh,
  coordination: coordinationZh,
  taskManage: taskManageZh,
  outLineMap: outLineMapZh,
  googleMap: googleMapZh,
  network: networkZh,
  navigationEnvironment: navigationEnvironmentZh,
  deviceType: deviceTypeZh,
  auditLog: auditLogZh,
  firmware: firmwareZh,
  teachingVideos: teachingVideosZh,
};

export type FeatureCatalog = typeof zhCN;
