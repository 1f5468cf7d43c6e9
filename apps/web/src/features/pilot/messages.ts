/**
 * Texts of the DJI Pilot 2 page (merged into the catalogs under `pilot`). Keep both languages with the same
 * keys: the English object is typed by the Chinese one, and the catalog test compares them.
 */
export const pilotZh = {
  title: '接入 DJI Pilot 2',
  noBridge: {
    title: '请在 DJI Pilot 2 中打开本页',
    body: '本页通过 DJI Pilot 2 的开放平台把遥控器接入本平台，在普通浏览器中无法使用。',
    how: '在遥控器上打开 DJI Pilot 2 → 云服务 → 开放平台，输入下面的地址：',
    register: '遥控器须先在“设备管理”中登记：接入协议“大疆上云 API”，类型“单兵无人机”，设备 SN 为遥控器序列号，无人机 SN 为它连接的无人机序列号。',
  },
  signIn: {
    title: '登录控制台账号',
    account: '账号',
    password: '密码',
    submit: '登录',
    accountRequired: '请输入账号',
    passwordRequired: '请输入密码',
    failed: '登录失败',
  },
  step: {
    sn: '读取遥控器序列号',
    server: '获取接入凭据',
    platformVerifyLicense: '验证开发者许可',
    platformSetWorkspaceId: '设置工作空间',
    platformSetInformation: '设置平台信息',
    platformLoadComponent: '连接 MQTT 服务',
  },
  rcSn: '遥控器序列号：{sn}',
  connected: '已连接',
  disconnected: '未连接',
  connecting: '正在连接…',
  retry: '重新连接',
  signOut: '退出登录',
  language: '语言',
  dock: {
    label: '在 Pilot 2 中部署机场时，填写机场序列号：Pilot 2 会把机场的接入凭据交给机场',
    placeholder: '机场 SN（留空：本遥控器）',
    apply: '按此连接',
    current: '当前接入设备：{sn}',
  },
};

export const pilotEn: typeof pilotZh = {
  title: 'Connect DJI Pilot 2',
  noBridge: {
    title: 'Open this page in DJI Pilot 2',
    body: "This page connects a remote controller to the platform through DJI Pilot 2's Open Platform; it does not work in an ordinary browser.",
    how: 'On the remote controller open DJI Pilot 2 → Cloud Service → Open Platform and enter this address:',
    register:
      "Register the remote controller in Equipment first: protocol DJI Cloud API, type single-soldier drone, the controller's serial number as device SN and its drone's as drone SN.",
  },
  signIn: {
    title: 'Sign in with your console account',
    account: 'Account',
    password: 'Password',
    submit: 'Sign in',
    accountRequired: 'Enter your account',
    passwordRequired: 'Enter your password',
    failed: 'Sign-in failed',
  },
  step: {
    sn: "Read the controller's serial number",
    server: 'Get the connection credentials',
    platformVerifyLicense: 'Verify the developer licence',
    platformSetWorkspaceId: 'Set the workspace',
    platformSetInformation: 'Set the platform information',
    platformLoadComponent: 'Connect to the MQTT service',
  },
  rcSn: 'Remote controller SN: {sn}',
  connected: 'Connected',
  disconnected: 'Not connected',
  connecting: 'Connecting…',
  retry: 'Connect again',
  signOut: 'Sign out',
  language: 'Language',
  dock: {
    label: "Setting up a dock in Pilot 2? Enter the dock's serial number: Pilot 2 passes the dock its login",
    placeholder: 'Dock SN (empty: this controller)',
    apply: 'Connect with it',
    current: 'Device being connected: {sn}',
  },
};
