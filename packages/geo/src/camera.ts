import type { CameraTypeValue, Text } from '@nest/contracts';
import type { Issue } from './issues.js';

/**
 * Cameras and photogrammetry (REFERENCE section 5, after QGC CameraCalc):
 *   GSD [cm/px] = sensorWidth [mm] * height [m] * 100 / (focal [mm] * imageWidth [px])
 *   height [m]  = imageWidth [px] * GSD [cm/px] * focal [mm] / (sensorWidth [mm] * 100)
 *   footprint (landscape: image width across the track) side = imageWidth * GSD / 100 m,
 *     front = imageHeight * GSD / 100 m
 *   line spacing = side * (1 - lateral overlap), trigger distance = front * (1 - course overlap)
 */
export interface CameraSensor {
  name: Text;
  sensorWidthMm: number;
  sensorHeightMm: number;
  imageWidthPx: number;
  imageHeightPx: number;
  focalLengthMm: number;
}

/** A camera of a task: its visible sensor and, for dual-light cameras, its thermal (infrared) sensor. */
export interface SurveyCamera {
  type: CameraTypeValue;
  visible: CameraSensor;
  thermal?: CameraSensor;
}

/**
 * '6k': a 1-inch-class 20 MP camera of the kind that films 6K (e.g. the Autel EVO II Pro 6K class):
 * sensor 13.2 x 8.8 mm, stills 5472 x 3648 px (2.41 µm pixels), focal length 10.6 mm (29 mm full-frame
 * equivalent). GSD at 100 m: 2.28 cm/px; footprint 124.5 x 83.0 m.
 */
export const CAMERA_6K: SurveyCamera = {
  type: '6k',
  visible: {
    name: { zh: '6K 相机（1 英寸）', en: '6K camera (1-inch)' },
    sensorWidthMm: 13.2,
    sensorHeightMm: 8.8,
    imageWidthPx: 5472,
    imageHeightPx: 3648,
    focalLengthMm: 10.6,
  },
};

/**
 * 'dual_light': a visible + thermal pod of the common Zenmuse XT2 kind.
 * - visible: 1/1.7-inch 12 MP, sensor 7.4 x 5.55 mm, 4000 x 3000 px (1.85 µm), focal 8 mm; GSD at 100 m
 *   2.31 cm/px, footprint 92.5 x 69.4 m;
 * - thermal: uncooled VOx 640 x 512 px with 12 µm pixels, so 7.68 x 6.144 mm, lens 13 mm; GSD at 100 m
 *   9.23 cm/px, footprint 59.1 x 47.3 m.
 * The thermal footprint is the smaller one, so it governs line spacing and trigger distance whenever the
 * photo type includes infrared (1 or 3).
 */
export const CAMERA_DUAL_LIGHT: SurveyCamera = {
  type: 'dual_light',
  visible: {
    name: { zh: '双光相机（可见光）', en: 'Dual-light camera (visible)' },
    sensorWidthMm: 7.4,
    sensorHeightMm: 5.55,
    imageWidthPx: 4000,
    imageHeightPx: 3000,
    focalLengthMm: 8,
  },
  thermal: {
    name: { zh: '双光相机（红外）', en: 'Dual-light camera (thermal)' },
    sensorWidthMm: 7.68,
    sensorHeightMm: 6.144,
    imageWidthPx: 640,
    imageHeightPx: 512,
    focalLengthMm: 13,
  },
};

export const CAMERA_PRESETS: Readonly<Record<'6k' | 'dual_light', SurveyCamera>> = { '6k': CAMERA_6K, dual_light: CAMERA_DUAL_LIGHT };

/** The custom-camera fields of a task (MissionSettings); null/absent when not filled in. */
export interface CustomCameraFields {
  sensor_width?: number | null;
  sensor_height?: number | null;
  image_width?: number | null;
  image_height?: number | null;
  focal_length?: number | null;
}

const CUSTOM_FIELDS: readonly { key: keyof CustomCameraFields; zh: string; en: string; max: number; int?: boolean }[] = [
  { key: 'sensor_width', zh: '传感器宽度（毫米）', en: 'sensor width (mm)', max: 100 },
  { key: 'sensor_height', zh: '传感器高度（毫米）', en: 'sensor height (mm)', max: 100 },
  { key: 'image_width', zh: '图像宽度（像素）', en: 'image width (px)', max: 100_000, int: true },
  { key: 'image_height', zh: '图像高度（像素）', en: 'image height (px)', max: 100_000, int: true },
  { key: 'focal_length', zh: '焦距（毫米）', en: 'focal length (mm)', max: 1000 },
];

/** A custom camera needs sensor width/height (mm), image width/height (px) and focal length (mm), all > 0. */
export function customCameraIssues(fields: CustomCameraFields): Issue[] {
  const issues: Issue[] = [];
  for (const f of CUSTOM_FIELDS) {
    const v = fields[f.key];
    const ok = typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= f.max && (!f.int || Number.isInteger(v));
    if (!ok)
      issues.push({
        code: `camera.${f.key}`,
        item: { kind: 'route' },
        text: { zh: `自定义相机须填写${f.zh}，大于 0 且不超过 ${f.max}`, en: `A custom camera needs its ${f.en}, above 0 and at most ${f.max}` },
      });
  }
  return issues;
}

/** The camera of a task's settings; null for a custom camera with missing or bad fields (see customCameraIssues). */
export function cameraFromSettings(settings: { camera_type: string } & CustomCameraFields): SurveyCamera | null {
  if (settings.camera_type === '6k') return CAMERA_6K;
  if (settings.camera_type === 'dual_light') return CAMERA_DUAL_LIGHT;
  if (settings.camera_type !== 'custom' || customCameraIssues(settings).length > 0) return null;
  return {
    type: 'custom',
    visible: {
      name: { zh: '自定义相机', en: 'Custom camera' },
      sensorWidthMm: settings.sensor_width!,
      sensorHeightMm: settings.sensor_height!,
      imageWidthPx: settings.image_width!,
      imageHeightPx: settings.image_height!,
      focalLengthMm: settings.focal_length!,
    },
  };
}

/** GSD in cm/px at a height (m) above the ground. */
export const gsdFromHeight = (s: CameraSensor, heightM: number): number =>
  (s.sensorWidthMm * heightM * 100) / (s.focalLengthMm * s.imageWidthPx);

/** Height (m) above the ground giving a GSD (cm/px). */
export const heightFromGsd = (s: CameraSensor, gsdCm: number): number =>
  (s.imageWidthPx * gsdCm * s.focalLengthMm) / (s.sensorWidthMm * 100);

/** Ground footprint of one photo (m) at a height, landscape: `side` across the track, `front` along it. */
export function footprint(s: CameraSensor, heightM: number): { side: number; front: number } {
  const gsd = gsdFromHeight(s, heightM);
  return { side: (s.imageWidthPx * gsd) / 100, front: (s.imageHeightPx * gsd) / 100 };
}

/** Distance between survey lines (m) for a side (lateral) overlap in percent. */
export const lineSpacingFor = (footprintSide: number, sideOverlapPct: number): number => footprintSide * (1 - sideOverlapPct / 100);

/** Distance between photos along a line (m) for a front (course) overlap in percent. */
export const triggerDistanceFor = (footprintFront: number, frontOverlapPct: number): number =>
  footprintFront * (1 - frontOverlapPct / 100);

const includesInfrared = (photoType: number): boolean => photoType === 1 || photoType === 3;
const includesVisible = (photoType: number): boolean => photoType !== 1;

/** The sensors taking photos for a photo type (PhotoType 1 infrared, 2 visible, 3 both). */
export function photoSensors(camera: SurveyCamera, photoType = 2): CameraSensor[] {
  if (!camera.thermal) return [camera.visible];
  const out: CameraSensor[] = [];
  if (includesVisible(photoType)) out.push(camera.visible);
  if (includesInfrared(photoType)) out.push(camera.thermal);
  return out;
}

/**
 * The sensor a GSD figure refers to: the thermal one when only infrared photos are taken, else the
 * visible one (with both, the GSD is the orthophoto's while the thermal footprint sets the spacing).
 */
export const gsdSensor = (camera: SurveyCamera, photoType = 2): CameraSensor =>
  camera.thermal && photoType === 1 ? camera.thermal : camera.visible;

/** Footprint that all photo-taking sensors cover at a height: the smallest side and front among them. */
export function governingFootprint(camera: SurveyCamera, photoType: number, heightM: number): { side: number; front: number } {
  const prints = photoSensors(camera, photoType).map((s) => footprint(s, heightM));
  return { side: Math.min(...prints.map((p) => p.side)), front: Math.min(...prints.map((p) => p.front)) };
}
