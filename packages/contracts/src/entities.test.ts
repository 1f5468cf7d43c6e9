import { describe, expect, it } from 'vitest';
import {
  deviceSchema,
  droneVideoUrl,
  fenceSchema,
  isAzimuthValid,
  missionSchema,
  pageOf,
  timedTaskSchema,
  waypointSchema,
} from './entities.js';

const device = {
  id: 'd1',
  type: 'stable_mini',
  link_type: 1,
  protocol: 2,
  airport_name: '南山机场',
  uav_name: 'M3TD',
  sn_id: 'NEST001',
  uav_sn: 'UAV001',
  address: '深圳市南山区',
  uav_model: 'Matrice 3TD',
  description: '',
  azimuth: -1,
  altn_point: { lat: 22.53, lng: 113.93 },
  airport_point: null,
  beacon: null,
  company: 'wk',
  state: 1,
  enabled: true,
  create_time: 1_700_000_000,
};

describe('entity schemas', () => {
  it('accept a well-formed device and refuse out-of-range values', () => {
    expect(deviceSchema.parse(device).type).toBe('stable_mini');
    expect(deviceSchema.safeParse({ ...device, azimuth: 361 }).success).toBe(false);
    expect(deviceSchema.safeParse({ ...device, protocol: 3 }).success).toBe(false);
    expect(deviceSchema.safeParse({ ...device, state: 4 }).success).toBe(false);
    expect(deviceSchema.safeParse({ ...device, altn_point: { lat: 100, lng: 0 } }).success).toBe(false);
  });

  it('treat azimuth -1 as invalid', () => {
    expect(isAzimuthValid(-1)).toBe(false);
    expect(isAzimuthValid(0)).toBe(true);
    expect(isAzimuthValid(360)).toBe(true);
    expect(isAzimuthValid(null)).toBe(false);
  });

  it('take the drone video from the first stream', () => {
    expect(droneVideoUrl({ stream_uav_list: ['rtmp://a', 'rtmp://b'] })).toBe('rtmp://a');
    expect(droneVideoUrl({ stream_uav_list: [] })).toBeNull();
  });

  it('need three fence points and waypoint actions within limits', () => {
    const ring = [{ lat: 1, lng: 1 }, { lat: 1, lng: 2 }, { lat: 2, lng: 2 }];
    expect(fenceSchema.safeParse({ id: 'f', name: 'F', max_height: 120, boundary: ring, sn_id: 'S', create_time: 0 }).success).toBe(true);
    expect(fenceSchema.safeParse({ id: 'f', name: 'F', max_height: 120, boundary: ring.slice(1), sn_id: 'S', create_time: 0 }).success).toBe(false);
    expect(waypointSchema.safeParse({ lat: 1, lng: 1, height: 50, hover: 255 }).success).toBe(true);
    expect(waypointSchema.safeParse({ lat: 1, lng: 1, height: 50, hover: 1.5 }).success).toBe(false);
  });

  it('describe a mission with its settings and a timed task', () => {
    const mission = {
      id: 'm1', name: 'Route', fence_id: 'f1', f_title: 'Fence', mission_type: 1, height_type: 0, auto_speed: 8,
      max_speed: 12, default_height: 100, return_height: 120, finish_action: 40, exec_type: 1, camera_type: 'dual_light',
      sensor_width: null, sensor_height: null, image_width: null, image_height: null, focal_length: null,
      course_overlap: 80, lateral_overlap: 70, turn_distance: 10, angle: 0, interval_height: 0, elevation: false,
      photo_type: 3, waypoints: [{ lat: 1, lng: 1, height: 80 }], distance: 0, est_time: 0, user_name: 'a',
      create_time: 0, modified_time: 0,
    };
    expect(missionSchema.parse(mission).finish_action).toBe(40);
    expect(missionSchema.safeParse({ ...mission, finish_action: 50 }).success).toBe(false);
    const task = {
      id: 't', f_title: 'F', m_title: 'M', mission_id: 'm1', fence_id: 'f1', sn_id: 'S', task_tms: 1, interval: 30,
      task_state: 41, state: 0, create_time: 0,
    };
    expect(timedTaskSchema.parse(task).task_state).toBe(41);
    expect(pageOf(timedTaskSchema).parse({ list: [task], total: 1 }).list).toHaveLength(1);
  });
});
