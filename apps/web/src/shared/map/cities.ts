import type { LatLng } from './basemaps';

/** A city of the built-in table (offline city search): names in both languages, WGS84 centre. */
export interface City extends LatLng {
  zh: string;
  en: string;
}

/** Major Chinese cities (provincial capitals, municipalities, large cities), WGS84 centres. */
export const CITIES: readonly City[] = [
  { zh: '深圳', en: 'Shenzhen', lat: 22.5431, lng: 114.0579 },
  { zh: '北京', en: 'Beijing', lat: 39.9042, lng: 116.4074 },
  { zh: '上海', en: 'Shanghai', lat: 31.2304, lng: 121.4737 },
  { zh: '广州', en: 'Guangzhou', lat: 23.1291, lng: 113.2644 },
  { zh: '天津', en: 'Tianjin', lat: 39.3434, lng: 117.3616 },
  { zh: '重庆', en: 'Chongqing', lat: 29.563, lng: 106.5516 },
  { zh: '成都', en: 'Chengdu', lat: 30.5728, lng: 104.0668 },
  { zh: '杭州', en: 'Hangzhou', lat: 30.2741, lng: 120.1551 },
  { zh: '武汉', en: 'Wuhan', lat: 30.5928, lng: 114.3055 },
  { zh: '西安', en: "Xi'an", lat: 34.3416, lng: 108.9398 },
  { zh: '南京', en: 'Nanjing', lat: 32.0603, lng: 118.7969 },
  { zh: '长沙', en: 'Changsha', lat: 28.2282, lng: 112.9388 },
  { zh: '郑州', en: 'Zhengzhou', lat: 34.7466, lng: 113.6253 },
  { zh: '沈阳', en: 'Shenyang', lat: 41.8057, lng: 123.4315 },
  { zh: '哈尔滨', en: 'Harbin', lat: 45.8038, lng: 126.535 },
  { zh: '长春', en: 'Changchun', lat: 43.8171, lng: 125.3235 },
  { zh: '济南', en: 'Jinan', lat: 36.6512, lng: 117.1201 },
  { zh: '青岛', en: 'Qingdao', lat: 36.0671, lng: 120.3826 },
  { zh: '大连', en: 'Dalian', lat: 38.914, lng: 121.6147 },
  { zh: '厦门', en: 'Xiamen', lat: 24.4798, lng: 118.0894 },
  { zh: '福州', en: 'Fuzhou', lat: 26.0745, lng: 119.2965 },
  { zh: '南昌', en: 'Nanchang', lat: 28.682, lng: 115.8579 },
  { zh: '合肥', en: 'Hefei', lat: 31.8206, lng: 117.2272 },
  { zh: '苏州', en: 'Suzhou', lat: 31.2989, lng: 120.5853 },
  { zh: '昆明', en: 'Kunming', lat: 25.0389, lng: 102.7183 },
  { zh: '贵阳', en: 'Guiyang', lat: 26.647, lng: 106.6302 },
  { zh: '南宁', en: 'Nanning', lat: 22.817, lng: 108.3669 },
  { zh: '海口', en: 'Haikou', lat: 20.044, lng: 110.1999 },
  { zh: '兰州', en: 'Lanzhou', lat: 36.0611, lng: 103.8343 },
  { zh: '西宁', en: 'Xining', lat: 36.6171, lng: 101.7782 },
  { zh: '银川', en: 'Yinchuan', lat: 38.4872, lng: 106.2309 },
  { zh: '乌鲁木齐', en: 'Urumqi', lat: 43.8256, lng: 87.6168 },
  { zh: '呼和浩特', en: 'Hohhot', lat: 40.8426, lng: 111.7492 },
  { zh: '拉萨', en: 'Lhasa', lat: 29.65, lng: 91.1 },
  { zh: '太原', en: 'Taiyuan', lat: 37.8706, lng: 112.5489 },
  { zh: '石家庄', en: 'Shijiazhuang', lat: 38.0428, lng: 114.5149 },
  { zh: '香港', en: 'Hong Kong', lat: 22.3193, lng: 114.1694 },
  { zh: '澳门', en: 'Macao', lat: 22.1987, lng: 113.5439 },
];

const norm = (s: string) => s.trim().toLowerCase().replace(/[\s'’-]/g, '').replace(/(市|city)$/, '');

/** Finds a city by name in either language ("深圳", "深圳市", "shenzhen", "Xi'an"); exact name first, then prefix. */
export function searchCity(query: string, cities: readonly City[] = CITIES): City | null {
  const q = norm(query);
  if (!q) return null;
  return (
    cities.find((c) => norm(c.zh) === q || norm(c.en) === q) ??
    cities.find((c) => norm(c.zh).startsWith(q) || norm(c.en).startsWith(q)) ??
    null
  );
}
