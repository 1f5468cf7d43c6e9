import type { Text } from '@nest/contracts';

/**
 * Every message this package shows, in both languages. Builders take the facts (names, counts) so the
 * message says what is wrong and where, not just that something is.
 */

const t = (zh: string, en: string): Text => ({ zh, en });
const mb = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
const q = (s: string): string => (s.length > 60 ? `${s.slice(0, 57)}...` : s);

/** A refusal or failure raised inside a reader; importPlanFile turns it into `{ok: false, error}`. */
export class FormatError extends Error {
  constructor(readonly text: Text) {
    super(text.en);
    this.name = 'FormatError';
  }
}
export const fail = (text: Text): never => {
  throw new FormatError(text);
};

export const T = {
  // ---- file level ----
  unsupportedExtension: (name: string, exts: readonly string[]) =>
    t(
      `不支持的文件类型“${q(name)}”，请选择 ${exts.join('、')} 文件`,
      `Unsupported file type "${q(name)}": choose a ${exts.join(', ')} file`,
    ),
  emptyFile: () => t('文件为空', 'The file is empty'),
  fileTooLarge: (size: number, max: number) =>
    t(`文件过大（${mb(size)}），最大允许 ${mb(max)}`, `The file is too large (${mb(size)}); the limit is ${mb(max)}`),
  readAsGb18030: () =>
    t('文件不是 UTF-8 编码，已按 GB18030 读取', 'The file is not UTF-8; it was read as GB18030'),
  unknownEncoding: (enc: string) =>
    t(`不支持的文本编码“${q(enc)}”`, `Unsupported text encoding "${q(enc)}"`),
  unreadable: (detail: string) =>
    t(`无法读取文件：${q(detail)}`, `The file could not be read: ${q(detail)}`),
  nothingFound: () =>
    t('文件中没有围栏、航线或测区', 'The file contains no fence, route or survey area'),

  // ---- XML ----
  xmlDoctype: () =>
    t(
      '文件包含 DOCTYPE 或实体（ENTITY）声明，出于安全原因拒绝导入',
      'The file contains a DOCTYPE or ENTITY declaration and is refused for safety',
    ),
  xmlMalformed: (detail: string) =>
    t(`XML 格式错误：${q(detail)}`, `The XML is malformed: ${q(detail)}`),
  xmlTooManyNodes: (max: number) =>
    t(`XML 元素过多（超过 ${max} 个）`, `The XML has too many elements (more than ${max})`),
  xmlTooDeep: (max: number) =>
    t(`XML 嵌套过深（超过 ${max} 层）`, `The XML is nested too deeply (more than ${max} levels)`),
  notKml: (root: string) =>
    t(`不是 KML 文件（根元素为 <${q(root)}>）`, `Not a KML file (the root element is <${q(root)}>)`),

  // ---- coordinates ----
  tooManyCoordinates: (max: number) =>
    t(`文件中的坐标点过多（超过 ${max} 个）`, `The file has too many coordinates (more than ${max})`),
  badNumber: (where: string, value: string) =>
    t(`${q(where)}：坐标“${q(value)}”不是有效数字`, `${q(where)}: coordinate "${q(value)}" is not a valid number`),
  badTuple: (where: string, value: string) =>
    t(
      `${q(where)}：坐标“${q(value)}”应为 经度,纬度[,高度]`,
      `${q(where)}: coordinate "${q(value)}" should be longitude,latitude[,altitude]`,
    ),
  latOutOfRange: (where: string, lat: number) =>
    t(`${q(where)}：纬度 ${lat} 超出范围（-90 到 90）`, `${q(where)}: latitude ${lat} is out of range (-90 to 90)`),
  lngOutOfRange: (where: string, lng: number) =>
    t(
      `${q(where)}：经度 ${lng} 超出范围（-180 到 180）`,
      `${q(where)}: longitude ${lng} is out of range (-180 to 180)`,
    ),
  altNotFinite: (where: string) =>
    t(`${q(where)}：高度不是有效数字`, `${q(where)}: the altitude is not a valid number`),
  defaultHeightUsed: (route: string, count: number, height: number) =>
    t(
      `航线“${q(route)}”有 ${count} 个航点没有高度，已使用默认高度 ${height} 米`,
      `Route "${q(route)}": ${count} waypoint(s) had no height; the default ${height} m was used`,
    ),
  holesIgnored: (name: string) =>
    t(`“${q(name)}”的内环（洞）已忽略`, `"${q(name)}": inner rings (holes) were ignored`),
  noFlyRadius: (name: string, radius: number | undefined) =>
    t(
      `禁飞区“${q(name)}”的半径 ${radius ?? '?'} 米无效（应大于 0 且不超过 50000 米），已跳过`,
      `No-fly zone "${q(name)}": radius ${radius ?? '?'} m is invalid (above 0 and at most 50,000 m); skipped`,
    ),
  tooFewVertices: (name: string) =>
    t(`“${q(name)}”的点数不足，已跳过`, `"${q(name)}" has too few points and was skipped`),

  // ---- JSON / GeoJSON ----
  jsonMalformed: (detail: string) =>
    t(`JSON 格式错误：${q(detail)}`, `The JSON is malformed: ${q(detail)}`),
  jsonTooDeep: (max: number) =>
    t(`JSON 嵌套过深（超过 ${max} 层）`, `The JSON is nested too deeply (more than ${max} levels)`),
  notGeoJsonOrPlan: () =>
    t(
      '不是 GeoJSON 或 QGroundControl 航线（.plan）文件',
      'Not a GeoJSON or QGroundControl plan (.plan) file',
    ),
  geoJsonInvalid: (where: string, detail: string) =>
    t(`GeoJSON ${q(where)}：${q(detail)}`, `GeoJSON ${q(where)}: ${q(detail)}`),
  geoJsonCrs: (crs: string) =>
    t(
      `不支持的坐标系“${q(crs)}”，只接受 WGS84（EPSG:4326）`,
      `Unsupported coordinate system "${q(crs)}"; only WGS84 (EPSG:4326) is accepted`,
    ),
  geometryIgnored: (type: string, count: number) =>
    t(`已忽略 ${count} 个不支持的几何（${q(type)}）`, `${count} unsupported geometr(ies) (${q(type)}) ignored`),

  // ---- QGC plan ----
  notPlan: () =>
    t('不是 QGroundControl 航线文件（缺少 fileType "Plan"）', 'Not a QGroundControl plan (fileType "Plan" is missing)'),
  planInvalid: (where: string, detail: string) =>
    t(`航线文件 ${q(where)}：${q(detail)}`, `Plan ${q(where)}: ${q(detail)}`),
  planCommandIgnored: (command: number, count: number) =>
    t(`已忽略 ${count} 个不支持的任务指令（MAV_CMD ${command}）`, `${count} unsupported mission command(s) ignored (MAV_CMD ${command})`),
  planComplexIgnored: (type: string) =>
    t(`已忽略不支持的复杂任务项“${q(type)}”`, `Unsupported complex item "${q(type)}" ignored`),
  rallyIgnored: (count: number) =>
    t(`已忽略 ${count} 个集结点（rally points）`, `${count} rally point(s) ignored`),
  /** One mission item the console cannot hold as it is: its number as QGC shows it, and what was done. */
  planItem: (item: number, command: string, done: Text) =>
    t(`第 ${item} 项（${command}）：${done.zh}`, `Item ${item} (${command}): ${done.en}`),
  mixedAltitudeModes: (route: string) =>
    t(
      `航线“${q(route)}”混用了相对高度和海拔高度，请检查航点高度`,
      `Route "${q(route)}" mixes relative and above-sea-level heights; check the waypoint heights`,
    ),
  terrainHeights: (route: string) =>
    t(
      `航线“${q(route)}”使用地形跟随高度，已按离地高度导入，保存前需计算高程`,
      `Route "${q(route)}" uses terrain-following heights; they were imported as heights above ground and need elevation computing before saving`,
    ),
  altitudeModeDisagrees: () =>
    t(
      '部分任务项的 AltitudeMode 与 frame 不一致，已按 frame 处理',
      'Some items have an AltitudeMode that disagrees with their frame; the frame was used',
    ),

  // ---- KMZ ----
  notZip: () => t('不是有效的 KMZ（zip）文件', 'Not a valid KMZ (zip) file'),
  zip64: () => t('不支持 ZIP64 格式的 KMZ', 'ZIP64 archives are not supported'),
  zipTooManyEntries: (count: number, max: number) =>
    t(`KMZ 中的文件过多（${count} 个，最多 ${max} 个）`, `The KMZ holds too many files (${count}; the limit is ${max})`),
  zipDeclaredTooLarge: (size: number, max: number) =>
    t(
      `KMZ 解压后过大（声明 ${mb(size)}，最大 ${mb(max)}）`,
      `The KMZ unpacks too large (${mb(size)} declared; the limit is ${mb(max)})`,
    ),
  zipActualTooLarge: (max: number) =>
    t(`KMZ 解压后超过 ${mb(max)}，已停止`, `The KMZ unpacks to more than ${mb(max)}; unpacking stopped`),
  zipSizeMismatch: (name: string) =>
    t(
      `KMZ 中的“${q(name)}”解压后比声明的更大，文件可能被篡改`,
      `"${q(name)}" in the KMZ unpacks larger than declared; the archive may be forged`,
    ),
  zipBadPath: (name: string) =>
    t(`KMZ 中含有不安全的路径“${q(name)}”`, `The KMZ holds an unsafe path "${q(name)}"`),
  zipEncrypted: () => t('不支持加密的 KMZ', 'Encrypted KMZ files are not supported'),
  zipMethod: (name: string, method: number) =>
    t(`KMZ 中的“${q(name)}”使用了不支持的压缩方式（${method}）`, `"${q(name)}" in the KMZ uses an unsupported compression method (${method})`),
  zipCorrupt: (name: string) =>
    t(`KMZ 中的“${q(name)}”已损坏`, `"${q(name)}" in the KMZ is corrupt`),
  kmzNoKml: () =>
    t('KMZ 中没有 KML 或 WPML 航线文件', 'The KMZ holds no KML or WPML route file'),
  kmzRenamed: () =>
    t('文件内容是 KMZ（zip），已按 KMZ 读取', 'The file content is a KMZ (zip) and was read as one'),

  // ---- WPML ----
  wpmlActionIgnored: (func: string, count: number) =>
    t(`已忽略 ${count} 个不支持的航点动作（${q(func)}）`, `${count} unsupported waypoint action(s) ignored (${q(func)})`),
  wpmlEllipsoidHeights: () =>
    t(
      '航线高度为 WGS84 椭球高，已按海拔高度导入（未做大地水准面改正）',
      'Route heights are WGS84 ellipsoid heights; imported as altitude without geoid correction',
    ),
  actionValueClamped: (route: string, what: Text) =>
    t(`航线“${q(route)}”：${what.zh}超出范围，已调整`, `Route "${q(route)}": ${what.en} out of range was adjusted`),

  // ---- task check ----
  noFence: (contents: Text) => t(`文件中没有围栏（${contents.zh}）`, `The file contains no fence (${contents.en})`),
  noRoute: (contents: Text) =>
    t(`文件中没有航点航线（${contents.zh}）`, `The file contains no waypoint route (${contents.en})`),
  noNoFly: (contents: Text) =>
    t(`文件中没有禁飞区（${contents.zh}）`, `The file contains no no-fly zone (${contents.en})`),
  noSurvey: (contents: Text) =>
    t(`文件中没有测区多边形（${contents.zh}）`, `The file contains no survey area polygon (${contents.en})`),
  contents: (fences: number, routes: number, surveys: number, noFly = 0, corridors = 0) => {
    const zh: string[] = [];
    const en: string[] = [];
    const add = (n: number, z: string, e: string): void => {
      if (!n) return;
      zh.push(`${n} ${z}`);
      en.push(`${n} ${e}${n > 1 ? 's' : ''}`);
    };
    add(fences, '个围栏', 'fence');
    add(routes, '条航线', 'route');
    add(surveys, '个测区', 'survey area');
    add(noFly, '个禁飞区', 'no-fly zone');
    add(corridors, '个带状测区', 'strip scan');
    return zh.length ? t(`文件包含 ${zh.join('、')}`, `it contains ${en.join(', ')}`) : t('文件为空', 'it is empty');
  },
  fenceTooFewPoints: (name: string, distinct: number) =>
    t(
      `围栏“${q(name)}”不完整：只有 ${distinct} 个不同的点，至少需要 3 个`,
      `Fence "${q(name)}" is incomplete: it has ${distinct} distinct point(s); at least 3 are needed`,
    ),
  fenceDegenerate: (name: string) =>
    t(`围栏“${q(name)}”不完整：各点共线，面积为零`, `Fence "${q(name)}" is incomplete: its points are collinear (zero area)`),
  fenceSelfIntersecting: (name: string) =>
    t(`围栏“${q(name)}”的边界自相交`, `Fence "${q(name)}" crosses itself`),
  fenceTooManyPoints: (name: string, max: number) =>
    t(`围栏“${q(name)}”的点过多（超过 ${max} 个）`, `Fence "${q(name)}" has too many points (more than ${max})`),
  lineNotClosed: (name: string) =>
    t(
      `“${q(name)}”是一条未闭合的线，不是完整的围栏`,
      `"${q(name)}" is an open line, not a complete fence`,
    ),
  closedLineAsFence: (name: string) =>
    t(`已将闭合线“${q(name)}”作为围栏导入`, `The closed line "${q(name)}" was imported as the fence`),
  fenceAsSurvey: (name: string) =>
    t(`已将多边形“${q(name)}”作为测区导入`, `The polygon "${q(name)}" was imported as the survey area`),
  onlyFirstUsed: (kind: 'fence' | 'route' | 'survey', count: number, name: string) => {
    const zh = { fence: '个围栏', route: '条航线', survey: '个测区' }[kind];
    const en = { fence: 'fences', route: 'routes', survey: 'survey areas' }[kind];
    return t(`文件包含 ${count} ${zh}，只导入了“${q(name)}”`, `The file holds ${count} ${en}; only "${q(name)}" was imported`);
  },
  routeTooFewWaypoints: (name: string, count: number) =>
    t(
      `航线“${q(name)}”只有 ${count} 个航点，至少需要 2 个`,
      `Route "${q(name)}" has ${count} waypoint(s); at least 2 are needed`,
    ),
  routeTooManyWaypoints: (name: string, count: number, max: number) =>
    t(
      `航线“${q(name)}”有 ${count} 个航点，最多 ${max} 个`,
      `Route "${q(name)}" has ${count} waypoints; the limit is ${max}`,
    ),
  waypointInvalid: (name: string, index: number, detail: string) =>
    t(
      `航线“${q(name)}”第 ${index + 1} 个航点无效：${q(detail)}`,
      `Route "${q(name)}", waypoint ${index + 1} is invalid: ${q(detail)}`,
    ),
  waypointHeight: (name: string, index: number, height: number, max: number) =>
    t(
      `航线“${q(name)}”第 ${index + 1} 个航点高度 ${height} 米无效（应大于 0 且不超过 ${max} 米）`,
      `Route "${q(name)}", waypoint ${index + 1}: height ${height} m is invalid (above 0 and at most ${max} m)`,
    ),

  // ---- export ----
  exportNoRoute: () =>
    t('没有可导出的航线', 'There is no route to export'),
  exportNothing: () => t('没有可导出的内容', 'There is nothing to export'),
  exportDropped: (what: Text, format: string) =>
    t(`${format} 不支持${what.zh}，已省略`, `${format} cannot hold ${what.en}; left out`),
  exportPanoAsPhoto: () =>
    t('QGC 航线没有全景拍照指令，已导出为单张拍照', 'QGC plans have no panorama command; exported as a single photo'),
  exportNoFlyWpml: (count: number) =>
    t(
      `DJI 航线文件没有禁飞区元素，${count} 个禁飞区未写入；请以 GeoJSON 导出后作为自定义飞行区导入机场`,
      `DJI route files have no no-fly element: ${count} no-fly zone(s) were left out; export them as GeoJSON to load them as a custom flight area`,
    ),
  exportSurveyNoRoute: (name: string) =>
    t(
      `测区“${q(name)}”还没有生成的航线，无法按航点航线导出`,
      `Survey area "${q(name)}" has no generated route yet, so it cannot be exported as a waypoint route`,
    ),
  surveyNoRoute: (name: string, detail: string) =>
    t(`测区“${q(name)}”无法生成航线：${q(detail)}`, `Survey area "${q(name)}": no route could be generated: ${q(detail)}`),
  exportEllipsoid: () =>
    t(
      'DJI 航线以 WGS84 椭球高执行，海拔高度未做大地水准面改正',
      'DJI waylines fly WGS84 ellipsoid heights; altitudes were written without geoid correction',
    ),
  unknownFormat: (format: string) =>
    t(`不支持的导出格式“${q(format)}”`, `Unsupported export format "${q(format)}"`),
};

/** What the QGC reader did with an item (the `done` of T.planItem). */
export const itemDone = {
  leftOut: t('控制台不支持，已省略', 'not supported by the console; left out'),
  intervalCapture: t('定时连拍不是航点动作，已省略', 'interval capture is not a waypoint action; left out'),
  relativeYaw: t('相对偏航不支持，已省略', 'relative yaw is not supported; left out'),
  asWaypoint: t('已作为普通航点导入（盘旋圈数或爬升未保留）', 'imported as a plain waypoint (its turns or climb are not kept)'),
  delayAsHover: (seconds: number, waypoint: number) =>
    t(`延时 ${seconds} 秒已加到第 ${waypoint} 个航点的悬停`, `the ${seconds} s delay was added to the hover at waypoint ${waypoint}`),
  holdKept: (seconds: number, kept: number) =>
    t(
      `停留 ${seconds} 秒：控制台航线保存为 ${kept} 秒，导出 .plan 时保留原值`,
      `hold ${seconds} s: the console's route keeps ${kept} s; a .plan export keeps the file's value`,
    ),
  loiterKept: (seconds: number) =>
    t(
      `定时盘旋 ${seconds} 秒：控制台航线按悬停处理（不保留盘旋半径），导出 .plan 时仍为盘旋`,
      `timed loiter of ${seconds} s: the console's route hovers there (no loiter radius); a .plan export keeps the loiter`,
    ),
  noAltitude: (height: number) =>
    t(
      `没有高度，使用航线默认高度 ${height} 米（导出 .plan 时仍无高度）`,
      `no altitude: the route's default height ${height} m applies (a .plan export leaves it without altitude)`,
    ),
  notAboveTakeoff: (alt: number, height: number) =>
    t(
      `高度 ${alt} 米不高于起飞点，使用航线默认高度 ${height} 米（导出 .plan 时保留原值）`,
      `altitude ${alt} m is not above the take-off point: the route's default height ${height} m applies (a .plan export keeps the file's value)`,
    ),
  terrainCalc: (height: number) =>
    t(
      `离地 ${height} 米（QGC 按地形计算海拔）：按离地高度和地形跟随导入，导出 .plan 时保留`,
      `${height} m above terrain (QGC computes the altitude from terrain): imported as a height above ground with terrain following; a .plan export keeps it`,
    ),
  otherFrame: (frame: Text) =>
    t(
      `高度参考为${frame.zh}，与航线不同：控制台航线按航线的高度类型保存该数值，导出 .plan 时保留原参考`,
      `altitude ${frame.en}, unlike the route: the console's route stores the number in the route's height type; a .plan export keeps the reference`,
    ),
  roi: t(
    '兴趣点：其后航点的机头朝向和云台角度已指向该点，导出 .plan 时仍为兴趣点',
    'region of interest: the following waypoints head and point the gimbal at it; a .plan export keeps the region of interest',
  ),
  roiNone: t('取消兴趣点：其后航点不再指向兴趣点', 'region of interest cleared: the following waypoints no longer point at it'),
  takeoffAt: t(
    '起飞项有自己的位置：控制台从机场起飞，位置和爬升高度仅在导出 .plan 时保留',
    'the take-off item has its own position: the console takes off from the nest; its position and climb altitude are kept for a .plan export',
  ),
  landAt: t(
    '在自己的位置降落：控制台在最后一个航点后降落，该位置仅在导出 .plan 时保留',
    'lands at its own position: the console lands after the last waypoint; the position is kept for a .plan export',
  ),
};

export const frames = {
  relative: t('相对起飞点', 'relative to the take-off point'),
  amsl: t('海拔', 'above sea level'),
  terrain: t('离地（地形）', 'above terrain'),
  terrain_calc: t('离地（QGC 计算海拔）', 'above terrain (QGC-calculated)'),
};

export const what = {
  hover: t('悬停时间', 'hover time'),
  gimbal: t('云台角度', 'gimbal angle'),
  speed: t('速度', 'speed'),
  camTrigDist: t('等距拍照间隔', 'photo distance'),
  fences: t('围栏', 'fences'),
  surveys: t('测区', 'survey areas'),
  corridors: t('带状测区', 'strip scans'),
  extraSurveys: (n: number) => t(`其余 ${n} 个测区`, `${n} more survey area(s)`),
  extraRoutes: (n: number) => t(`其余 ${n} 条航线`, `${n} more route(s)`),
};
