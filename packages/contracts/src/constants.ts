/** Business constants and limits (SPEC section 9). */

export const APP_TYPE = 3;
/** Identity of this client towards the server (SPEC common fields). */
export const APP_IDS = 'nest-console-web';
export const APP_CODE = '100';
export const APP_FLAVOR = 'standard';

export const REQUEST_TIMEOUT_MS = 60_000;
export const PUSH_HEARTBEAT_MS = 20_000;
export const VIRTUAL_UP_INTERVAL_MS = 200;
export const VIRTUAL_UP_VALUE = 1500;
export const EQUIPMENT_VERIFY_VST = 40;
export const EQUIPMENT_VERIFY_SOR = '100';

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 32;
/** End time (seconds) at or beyond which an account is permanently valid. */
export const PERMANENT_END_TIME = 4_765_104_000;
export const ACCOUNT_EDIT_STATE = 10;
/** Largest base64 RSA envelope accepted in a password field. */
export const PASSWORD_ENVELOPE_MAX = 1024;

export const WAYPOINT_DISTANCE_LIMIT_M = 2000;
export const WAYPOINT_DISTANCE_LIMIT_LONG_M = 5000;
export const TIMED_TASK_MIN_INTERVAL_MIN = 30;
export const FLOW_MIN_BATTERY_PERCENT = 50;

export const DEVICE_LIST_DEFAULT_PAGE = 0;
export const DEVICE_LIST_DEFAULT_SIZE = 200;
export const DEVICE_LIST_DEFAULT_TYPE = 0;

export const MAP_DEFAULT_ZOOM = 15;
export const MAP_MIN_ZOOM = 3;
export const MAP_MAX_ZOOM = 30;
export const GEOLOCATION_TIMEOUT_MS = 1000;
export const MARKER_CLUSTER_MAX_ZOOM = 18;
export const MARKER_CLUSTER_GRID_SIZE = 60;

/** Shutter options, slowest to fastest, as shown to operators. */
export const SHUTTER_OPTIONS: readonly string[] = [
  '2.0', '1.6', '1.3', '1.0', '0.8', '0.6', '0.5', '0.4', '0.3',
  '1/4', '1/5', '1/6', '1/8', '1/10', '1/13', '1/15', '1/20', '1/25', '1/30', '1/40', '1/50', '1/60',
  '1/80', '1/100', '1/120', '1/160', '1/200', '1/240', '1/320', '1/400', '1/500', '1/640', '1/800',
  '1/1000', '1/1250', '1/1600', '1/2000', '1/2500', '1/3200', '1/4000', '1/5000', '1/6400', '1/8000',
  '1/10000',
];
export const ISO_OPTIONS: readonly number[] = Array.from({ length: 48 }, (_, i) => (i + 1) * 100);
export const PHOTO_SIZE_OPTIONS: readonly string[] = ['8M', '12M', '16M', '20M', '32M', '41M'];
export const PHOTO_FORMAT_OPTIONS: readonly string[] = ['JPG', 'RAW', 'RAW&JPG'];
export const RECORDING_RESOLUTION_OPTIONS: readonly string[] = ['4K25', '4K30', '4K60', '6K25'];
export const RECORDING_BITRATE_OPTIONS: readonly string[] = ['8M', '16M', '24M', '32M', '48M', '64M'];

export const LEFT_MENU_COUNT = 3;
export const RIGHT_MENU_COUNT = 4;
export const DIALOG_LABEL_WIDTH = '120px';
/** The menu item whose popover also offers the system-settings (language) entry. */
export const SYSTEM_SETTINGS_MENU_SORT = 6;

export const THEMES = ['default', 'concise'] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = 'default';

/** Local storage keys (SPEC section 9). */
export const STORAGE_KEYS = { language: 'language', theme: 'theme', userInfo: 'userInfo' } as const;
export const TOKEN_COOKIE = 'nest_token';
/** Lifetime of the token cookie in hours, matching the server's absolute session lifetime. */
export const TOKEN_COOKIE_HOURS = 12;

/** Freshness window for calls signed with the timestamp flag. */
export const TIMESTAMP_WINDOW_MS = 5 * 60_000;

/** Firmware upload (`/rom/add`): the multipart part holding the file and the only accepted extension. */
export const FIRMWARE_FILE_FIELD = 'file';
export const FIRMWARE_FILE_EXT = '.wkimg';
/** Route/fence import: accepted file extensions (SPEC section 5). */
export const IMPORT_FILE_EXTS: readonly string[] = ['.kml', '.json', '.plan'];
const hasExt = (fileName: string, exts: readonly string[]): boolean =>
  exts.some((ext) => fileName.toLowerCase().endsWith(ext));
export const isFirmwareFileName = (fileName: string): boolean => hasExt(fileName, [FIRMWARE_FILE_EXT]);
export const isImportFileName = (fileName: string): boolean => hasExt(fileName, IMPORT_FILE_EXTS);

// ---------------------------------------------------------------- firmware and teaching videos
/** Largest firmware package `/rom/add` accepts (the server's default; FIRMWARE_MAX_MB moves it). */
export const FIRMWARE_MAX_BYTES = 512 * 1024 * 1024;
/** Teaching videos (`/teach/add`): the multipart part holding the file, the accepted extensions and the size limit. */
export const TEACHING_VIDEO_FILE_FIELD = 'file';
export const TEACHING_VIDEO_EXTS: readonly string[] = ['.mp4', '.webm'];
export const TEACHING_VIDEO_MAX_BYTES = 1024 * 1024 * 1024;
export const isTeachingVideoFileName = (fileName: string): boolean => hasExt(fileName, TEACHING_VIDEO_EXTS);

/**
 * Online raster basemaps (tile URL templates). The browser draws them; the server's Content-Security-Policy
 * allows exactly their origins. AMap tiles are in GCJ-02, the others in WGS84.
 */
export const ONLINE_BASEMAP_TILES = {
  osm: ['https://tile.openstreetmap.org/{z}/{x}/{y}.png'],
  amap: [1, 2, 3, 4].map(
    (n) => `https://webrd0${n}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}`,
  ),
  google: [0, 1, 2, 3].map((n) => `https://mt${n}.google.com/vt/lyrs=s&x={x}&y={y}&z={z}`),
} as const satisfies Record<string, readonly string[]>;

/** Distinct origins of the online basemaps, e.g. 'https://tile.openstreetmap.org'. */
export function onlineBasemapOrigins(): string[] {
  return [...new Set(Object.values(ONLINE_BASEMAP_TILES).flat().map((t) => new URL(t.replace(/[{}]/g, '')).origin))];
}
