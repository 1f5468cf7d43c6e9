/** Texts of the Google map screen (catalog key `googleMap`). */
export const googleMapZh = {
  title: '谷歌地图',
  devices: '设备 {online} / {total} 在线',
  loading: '正在加载谷歌影像…',
  unreachable: '无法从当前网络访问谷歌地图瓦片服务器（mt*.google.com），谷歌影像无法显示。',
  unreachableHint: '该服务器所在网络可能未连接互联网，或被防火墙阻止。可切换到服务器自带的离线底图。',
  useOffline: '切换到离线底图',
  retry: '重试谷歌影像',
  showingOffline: '当前显示离线底图（谷歌影像不可用）',
  backToGoogle: '返回谷歌影像',
  wgs84: '谷歌影像采用 WGS84 坐标，设备位置无需纠偏。',
  noDevices: '暂无带位置的设备',
};

export const googleMapEn: typeof googleMapZh = {
  title: 'Google map',
  devices: 'Devices {online} / {total} online',
  loading: 'Loading Google imagery…',
  unreachable: "Google's tile servers (mt*.google.com) cannot be reached from this network: the Google imagery cannot be shown.",
  unreachableHint: "This network may have no internet access, or a firewall blocks it. You can switch to the server's own offline basemap.",
  useOffline: 'Switch to the offline basemap',
  retry: 'Retry Google imagery',
  showingOffline: 'Showing the offline basemap (Google imagery unavailable)',
  backToGoogle: 'Back to Google imagery',
  wgs84: 'Google imagery uses WGS84: device positions need no conversion.',
  noDevices: 'No device with a position yet',
};
