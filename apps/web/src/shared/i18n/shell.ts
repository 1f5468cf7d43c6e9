/**
 * Texts of the shell and of the shared modules (page title, common buttons, request, push, cookie, map and
 * video messages), in both languages. Feature texts are registered next to these at start-up by `app/i18n`.
 */
export const shellZh = {
  app: {
    name: '无人机管理平台',
    pageTitle: '无人机管理平台 - {page}',
    loading: '正在加载…',
    menuLoading: '正在加载菜单…',
    menuFailed: '菜单加载失败，请检查网络后重试',
    userFailed: '无法获取用户信息，请重新登录',
    retry: '重试',
    switchingLanguage: '正在切换语言…',
    loadFailedTitle: '页面加载失败',
    loadFailedChunk: '控制台可能已经更新，或网络中断。请重新加载页面后继续。',
    loadFailedError: '页面出现错误。请重新加载页面；如果问题仍然存在，请联系管理员。',
    reload: '重新加载',
  },
  common: {
    ok: '确定',
    cancel: '取消',
    save: '保存',
    close: '关闭',
    notice: '提示',
  },
  request: {
    timeout: '请求超时，请稍后重试',
    network: '网络连接失败，请检查网络后重试',
    httpError: '请求失败（HTTP {status}）',
    badResponse: '服务器返回了无法识别的数据',
  },
  push: {
    sessionEnded: '您的登录已失效，请重新登录',
  },
  map: {
    flight: {
      route: '航线',
      track: '飞行轨迹',
    },
    basemap: {
      offline: '离线',
      osm: 'OSM',
      amap: '高德',
      google: '谷歌影像',
    },
    legend: {
      s1: '在线',
      s2: '离线',
      s3: '他人连接中',
    },
    searchCity: '搜索城市',
    cityNotFound: '未找到城市“{name}”',
    locate: '定位到当前位置',
    locatedByCity: '无法获取精确位置，已定位到{city}',
    locateFailed: '定位失败：无法获取当前位置，城市查询也未成功',
    unavailable: '浏览器不支持 WebGL2，无法显示地图',
    onlineFailed: '无法加载{name}地图（未连接互联网，或其服务器被屏蔽）。',
    useOffline: '改用离线地图',
    packages: '离线地图包',
    packagesHint: '本单位的离线地图包（按 WGS84 坐标显示）',
    packageGone: '所选底图的离线地图包已不存在，已改用离线地图。',
    dismiss: '关闭',
    zoomIn: '放大',
    zoomOut: '缩小',
    attribution: '地图数据来源',
    devices: '地图上的设备',
    zoneLegend: '地图区域',
  },
  video: {
    loading: '正在连接视频…',
    noUrl: '该设备暂无视频流',
    unavailable: '视频暂不可用',
    unsupported: '当前浏览器无法播放该视频流',
    retrying: '{seconds} 秒后重试',
  },
  cookie: {
    emptyKey: 'key 不能为空',
  },
};

export type ShellCatalog = typeof shellZh;

export const shellEn: ShellCatalog = {
  app: {
    name: 'Drone Management Platform',
    pageTitle: 'Drone Management Platform - {page}',
    loading: 'Loading…',
    menuLoading: 'Loading the menu…',
    menuFailed: 'The menu could not be loaded; check the network and try again',
    userFailed: 'Your account information could not be loaded; please sign in again',
    retry: 'Retry',
    switchingLanguage: 'Switching language…',
    loadFailedTitle: 'This page could not be loaded',
    loadFailedChunk: 'The console may have been updated, or the network was interrupted. Reload the page to continue.',
    loadFailedError: 'Something went wrong on this page. Reload it; if the problem persists, contact your administrator.',
    reload: 'Reload',
  },
  common: {
    ok: 'OK',
    cancel: 'Cancel',
    save: 'Save',
    close: 'Close',
    notice: 'Notice',
  },
  request: {
    timeout: 'The request timed out; please try again later',
    network: 'Network error; please check your connection and try again',
    httpError: 'Request failed (HTTP {status})',
    badResponse: 'The server returned an unreadable response',
  },
  push: {
    sessionEnded: 'Your session has ended; please sign in again',
  },
  map: {
    flight: {
      route: 'Route',
      track: 'Flown track',
    },
    basemap: {
      offline: 'Offline',
      osm: 'OSM',
      amap: 'AMap',
      google: 'Google satellite',
    },
    legend: {
      s1: 'Online',
      s2: 'Offline',
      s3: 'Connected by someone',
    },
    searchCity: 'Search a city',
    cityNotFound: 'No city named "{name}" was found',
    locate: 'Go to my location',
    locatedByCity: 'Your exact position is unavailable; showing {city}',
    locateFailed: 'Location failed: neither your position nor the city search is available',
    unavailable: 'The map needs WebGL2, which this browser does not provide',
    onlineFailed: 'The {name} map cannot be loaded (no internet connection, or its server is blocked).',
    useOffline: 'Use the offline map',
    packages: 'Offline packages',
    packagesHint: 'Offline map packages of your company (drawn as WGS84)',
    packageGone: 'The offline map package chosen as the basemap no longer exists: the offline map is shown instead.',
    dismiss: 'Close',
    zoomIn: 'Zoom in',
    zoomOut: 'Zoom out',
    attribution: 'Map data sources',
    devices: 'Devices on the map',
    zoneLegend: 'Map zones',
  },
  video: {
    loading: 'Connecting to the video…',
    noUrl: 'This device has no video stream',
    unavailable: 'The video is unavailable right now',
    unsupported: 'This browser cannot play this video stream',
    retrying: 'Retrying in {seconds} s',
  },
  cookie: {
    emptyKey: 'key cannot be empty',
  },
};
