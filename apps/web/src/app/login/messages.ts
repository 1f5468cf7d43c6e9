/**
 * Texts of the sign-in screen (merged into the catalogs under `login`). Keep both languages with the same
 * keys: the English object is typed by the Chinese one, and the catalog test compares them.
 */
export const loginZh = {
  hero: {
    tagline: '自动机场 · 无人机 · 遥感作业一体化管理',
    featureTakeoff: '一键起降',
    featurePlanning: '航线规划',
    featureResults: '成果管理',
  },
  form: {
    title: '账号登录',
    subtitle: '欢迎回来，请登录您的账号',
    account: '账号',
    accountPlaceholder: '请输入手机号或邮箱',
    password: '密码',
    passwordPlaceholder: '请输入密码',
    remember: '记住账号',
    submit: '登录',
  },
  validate: {
    accountRequired: '请输入账号',
    accountFormat: '请输入正确的手机号或邮箱',
    passwordRequired: '请输入密码',
    passwordLength: '密码长度为 {min} 到 {max} 个字符',
  },
  language: '语言',
  success: '登录成功',
};

export const loginEn: typeof loginZh = {
  hero: {
    tagline: 'Automatic nests, drones and remote sensing in one console',
    featureTakeoff: 'One-key takeoff',
    featurePlanning: 'Route planning',
    featureResults: 'Achievements',
  },
  form: {
    title: 'Sign in',
    subtitle: 'Welcome back, please sign in to your account',
    account: 'Account',
    accountPlaceholder: 'Phone number or e-mail',
    password: 'Password',
    passwordPlaceholder: 'Password',
    remember: 'Remember account',
    submit: 'Sign in',
  },
  validate: {
    accountRequired: 'Please enter your account',
    accountFormat: 'Please enter a valid phone number or e-mail address',
    passwordRequired: 'Please enter your password',
    passwordLength: 'The password must be {min} to {max} characters',
  },
  language: 'Language',
  success: 'Signed in',
};
