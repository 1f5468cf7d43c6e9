import { useSyncExternalStore } from 'react';
import type { LatLng, MissionSettings, Waypoint } from '@nest/contracts';
import { routeDistance, routeEstimate } from '@nest/geo';

/**
 * The editor's working state (SPEC section 3): `fence`, `fenceId`, `routeItem`, `estTime`, `firstPoint`,
 * `lastPoint`, `flightCourse`, in one store with undo / redo. The first three are edited; the last four are
 * derived from them after every change (path = flightCourse; the estimate is @nest/geo's routeEstimate,
 * the function the server stores the route's est_time with, from the same take-off point `home`: the
 * airport of the fence's device, set with the fence).
 */
export type EditMode = 'fence' | 'route' | 'survey' | 'strip';

export interface FenceDraft {
  name: string;
  max_height: number;
  boundary: LatLng[];
  sn_id: string;
}

/**
 * The route being edited: its settings, its waypoints, for a survey the area polygon (open ring), for a
 * strip route the corridor's centre line and width (m).
 */
export interface RouteDraft extends Omit<MissionSettings, 'waypoints'> {
  waypoints: Waypoint[];
  area: LatLng[];
  line: LatLng[];
  corridor_width: number;
}

export interface WorkingState {
  fence: FenceDraft | null;
  fenceId: string | null;
  routeItem: RouteDraft | null;
  /** Take-off point: the airport of the device the fence is bound to (null: unknown, no home legs). */
  home: LatLng | null;
  /** Estimated flight time (whole seconds, as the server stores it). */
  estTime: number;
  firstPoint: LatLng | null;
  lastPoint: LatLng | null;
  /** The path flown, waypoint by waypoint. */
  flightCourse: LatLng[];
}

export const DEFAULT_ROUTE: Omit<RouteDraft, 'mission_type' | 'fence_id'> = {
  name: '',
  height_type: 0,
  auto_speed: 8,
  max_speed: 12,
  default_height: 100,
  return_height: 120,
  finish_action: 20,
  exec_type: 0,
  camera_type: '6k',
  sensor_width: null,
  sensor_height: null,
  image_width: null,
  image_height: null,
  focal_length: null,
  course_overlap: 80,
  lateral_overlap: 70,
  turn_distance: 0,
  angle: 0,
  interval_height: 0,
  elevation: false,
  photo_type: 2,
  waypoints: [],
  area: [],
  line: [],
  corridor_width: 60,
};

export const emptyState = (): WorkingState => ({
  fence: null,
  fenceId: null,
  routeItem: null,
  home: null,
  estTime: 0,
  firstPoint: null,
  lastPoint: null,
  flightCourse: [],
});

/** What an edit sets: fence, fenceId, routeItem, and the take-off point with the fence (kept when absent). */
export type EditedState = Pick<WorkingState, 'fence' | 'fenceId' | 'routeItem'> & { home?: LatLng | null };

/** Fills the derived fields from fence, fenceId, routeItem and home. */
export function derive(s: EditedState): WorkingState {
  const wps = s.routeItem?.waypoints ?? [];
  const course = wps.map(({ lat, lng }) => ({ lat, lng }));
  const home = s.home ?? null;
  const estTime = s.routeItem && wps.length > 0 ? routeEstimate({ ...s.routeItem, waypoints: wps }, home).est_time : 0;
  return {
    fence: s.fence,
    fenceId: s.fenceId,
    routeItem: s.routeItem,
    home,
    estTime,
    firstPoint: course[0] ?? null,
    lastPoint: course[course.length - 1] ?? null,
    flightCourse: course,
  };
}

export const courseLength = (s: WorkingState): number => routeDistance(s.flightCourse);

/* ------------------------------------------------------------------------------------------------ */
/* Pure edits of rings and waypoint lists                                                            */

export const insertAt = <T>(list: readonly T[], index: number, item: T): T[] => [...list.slice(0, index), item, ...list.slice(index)];
export const removeAt = <T>(list: readonly T[], index: number): T[] => list.filter((_, i) => i !== index);
export const replaceAt = <T>(list: readonly T[], index: number, item: T): T[] => list.map((x, i) => (i === index ? item : x));

/** Midpoint (in degrees: fine for the short edges of a work area) of an edge, to insert a vertex there. */
export const midpoint = (a: LatLng, b: LatLng): LatLng => ({ lat: (a.lat + b.lat) / 2, lng: (a.lng + b.lng) / 2 });

/**
 * A waypoint with one action changed. Only one of photo or panorama (SPEC section 5): `takephoto` holds one
 * value of TakePhoto (0 none, 1 photo, 2 panorama), so choosing one replaces the other; a cleared action is
 * removed (absent actions are not performed).
 */
export function withAction<K extends keyof Waypoint>(wp: Waypoint, key: K, value: Waypoint[K] | null | undefined): Waypoint {
  const next = { ...wp };
  if (value === null || value === undefined || (key === 'takephoto' && value === 0)) delete next[key];
  else next[key] = value;
  return next;
}

/** Sets photo or panorama on a waypoint: turning one on turns the other off; turning it off clears both. */
export function setPhotoKind(wp: Waypoint, kind: 'photo' | 'panorama', on: boolean): Waypoint {
  const code = kind === 'photo' ? 1 : 2;
  if (on) return withAction(wp, 'takephoto', code);
  return wp.takephoto === code ? withAction(wp, 'takephoto', null) : wp;
}

/* ------------------------------------------------------------------------------------------------ */
/* The store                                                                                          */

export const HISTORY_LIMIT = 200;

export type Target = 'fence' | 'waypoints' | 'area' | 'line';

export class WorkStore {
  private state: WorkingState = emptyState();
  private past: WorkingState[] = [];
  private future: WorkingState[] = [];
  private listeners = new Set<() => void>();
  private version = 0;

  get = (): WorkingState => this.state;
  getVersion = (): number => this.version;
  canUndo = (): boolean => this.past.length > 0;
  canRedo = (): boolean => this.future.length > 0;

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  private emit(): void {
    this.version++;
    this.listeners.forEach((l) => l());
  }

  /** Replaces everything and forgets the history (a loaded fence or route). */
  reset(s: EditedState): void {
    this.state = derive(s);
    this.past = [];
    this.future = [];
    this.emit();
  }

  /** One undoable change. */
  update(fn: (s: WorkingState) => EditedState): void {
    const next = derive({ home: this.state.home, ...fn(this.state) });
    this.past.push(this.state);
    if (this.past.length > HISTORY_LIMIT) this.past.shift();
    this.future = [];
    this.state = next;
    this.emit();
  }

  undo = (): void => this.step(this.past, this.future);
  redo = (): void => this.step(this.future, this.past);

  /** Undo or redo: the latest state of `from` becomes current, the current one goes onto `to`. */
  private step(from: WorkingState[], to: WorkingState[]): void {
    const state = from.pop();
    if (!state) return;
    to.push(this.state);
    this.state = state;
    this.emit();
  }

  setFence(patch: Partial<FenceDraft>): void {
    this.update((s) => ({ ...s, fence: { ...(s.fence ?? { name: '', max_height: 120, boundary: [], sn_id: '' }), ...patch } }));
  }

  setRoute(patch: Partial<RouteDraft>): void {
    this.update((s) => (s.routeItem ? { ...s, routeItem: { ...s.routeItem, ...patch } } : s));
  }

  /** The points of an editable target. */
  points(target: Target): LatLng[] {
    const s = this.state;
    if (target === 'fence') return s.fence?.boundary ?? [];
    if (target === 'area') return s.routeItem?.area ?? [];
    if (target === 'line') return s.routeItem?.line ?? [];
    return s.routeItem?.waypoints ?? [];
  }

  private setPoints(target: Target, fn: (pts: readonly LatLng[]) => LatLng[]): void {
    this.update((s) => {
      if (target === 'fence') {
        const f = s.fence ?? { name: '', max_height: 120, boundary: [], sn_id: '' };
        return { ...s, fence: { ...f, boundary: fn(f.boundary) } };
      }
      if (!s.routeItem) return s;
      if (target === 'area') return { ...s, routeItem: { ...s.routeItem, area: fn(s.routeItem.area) } };
      if (target === 'line') return { ...s, routeItem: { ...s.routeItem, line: fn(s.routeItem.line) } };
      return { ...s, routeItem: { ...s.routeItem, waypoints: fn(s.routeItem.waypoints) as Waypoint[] } };
    });
  }

  private newWaypoint(p: LatLng): Waypoint {
    return { lat: p.lat, lng: p.lng, height: this.state.routeItem?.default_height ?? DEFAULT_ROUTE.default_height };
  }

  /** Adds a point at the end. */
  addPoint(target: Target, p: LatLng): void {
    this.setPoints(target, (pts) => [...pts, target === 'waypoints' ? this.newWaypoint(p) : p]);
  }

  /** Inserts a point before `index` (dragging the midpoint of the edge ending at `index`). */
  insertPoint(target: Target, index: number, p: LatLng): void {
    this.setPoints(target, (pts) => insertAt(pts, index, target === 'waypoints' ? this.newWaypoint(p) : p));
  }

  /** Moves a point; a waypoint keeps its height and actions. */
  movePoint(target: Target, index: number, p: LatLng): void {
    this.setPoints(target, (pts) => replaceAt(pts, index, { ...pts[index]!, lat: p.lat, lng: p.lng }));
  }

  removePoint(target: Target, index: number): void {
    this.setPoints(target, (pts) => removeAt(pts, index));
  }

  setWaypoint(index: number, wp: Waypoint): void {
    this.update((s) => (s.routeItem ? { ...s, routeItem: { ...s.routeItem, waypoints: replaceAt(s.routeItem.waypoints, index, wp) } } : s));
  }
}

/** React binding: the working state, re-rendered on every change. */
export function useWorkState(store: WorkStore): WorkingState {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
