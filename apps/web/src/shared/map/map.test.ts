import { afterEach, describe, expect, it, vi } from 'vitest';
import { GEOLOCATION_TIMEOUT_MS } from '@nest/contracts';
import { wgs84ToGcj02 } from '@nest/geo';
import { BASEMAP_STORAGE_KEY, DEFAULT_BASEMAP, absoluteUrl, basemapStyle, fromMap, offlineStyleUrl, readBasemap, saveBasemap, toMap } from './basemaps';
import { searchCity } from './cities';
import { LocateError, locate } from './geolocate';
import { MARKER_COLORS, MARKER_COLOR_MINE, devicesToGeoJson, isFlying, markerColor, type MapDevice } from './markers';
import { clusterElement, deviceElement, updateClusterElement, updateDeviceElement } from './markerElements';

const SHENZHEN = { lat: 22.5431, lng: 114.0579 };
const device = (sn: string, state: number, extra: Partial<MapDevice> = {}): MapDevice => ({
  sn,
  name: sn,
  state,
  position: SHENZHEN,
  heading: 0,
  flightState: null,
  drone: false,
  ...extra,
});

describe('GCJ-02 conversion at the map boundary', () => {
  it('converts overlays only when the basemap is AMap (GCJ-02)', () => {
    const gcj = wgs84ToGcj02(SHENZHEN);
    expect(toMap('amap', SHENZHEN)).toEqual([gcj.lng, gcj.lat]);
    // The shift around Shenzhen is a few hundred metres: clearly not the identity.
    expect(Math.abs(gcj.lng - SHENZHEN.lng) + Math.abs(gcj.lat - SHENZHEN.lat)).toBeGreaterThan(0.003);
    for (const id of ['offline', 'osm', 'google'] as const) expect(toMap(id, SHENZHEN)).toEqual([SHENZHEN.lng, SHENZHEN.lat]);
  });

  it('converts clicks back to WGS84 on AMap and leaves them alone elsewhere', () => {
    const [lng, lat] = toMap('amap', SHENZHEN);
    const back = fromMap('amap', lng, lat);
    expect(back.lat).toBeCloseTo(SHENZHEN.lat, 6);
    expect(back.lng).toBeCloseTo(SHENZHEN.lng, 6);
    expect(fromMap('osm', 114, 22)).toEqual({ lat: 22, lng: 114 });
  });

  it('builds marker features in the basemap system, toggled by the basemap', () => {
    const devices = [device('A', 1), device('B', 2, { position: null })];
    const wgs = devicesToGeoJson(devices, 'offline');
    const mars = devicesToGeoJson(devices, 'amap');
    expect(wgs.features).toHaveLength(1); // no position, no marker
    expect(wgs.features[0]!.geometry.coordinates).toEqual([SHENZHEN.lng, SHENZHEN.lat]);
    expect(mars.features[0]!.geometry.coordinates).toEqual(toMap('amap', SHENZHEN));
  });

  it('remembers the basemap choice, offline by default', () => {
    localStorage.removeItem(BASEMAP_STORAGE_KEY);
    expect(readBasemap()).toBe(DEFAULT_BASEMAP);
    expect(DEFAULT_BASEMAP).toBe('offline');
    saveBasemap('amap');
    expect(readBasemap()).toBe('amap');
    localStorage.setItem(BASEMAP_STORAGE_KEY, 'bogus');
    expect(readBasemap()).toBe('offline');
  });

  it('offline style comes from the zone service; the others are raster styles', () => {
    expect(basemapStyle('offline', 'default')).toBe('/api/zone/tiles/basemap/style.json?theme=dark&lang=zh');
    expect(basemapStyle('offline', 'concise')).toBe('/api/zone/tiles/basemap/style.json?theme=light&lang=zh');
    expect(offlineStyleUrl('concise', 'en')).toBe('/api/zone/tiles/basemap/style.json?theme=light&lang=en');
    const amap = basemapStyle('amap', 'default');
    expect(typeof amap).toBe('object');
    expect(JSON.stringify(amap)).toContain('autonavi');
    expect(absoluteUrl('/api/zone/x.pbf', 'http://h:1')).toBe('http://h:1/api/zone/x.pbf');
    expect(absoluteUrl('https://a/b', 'http://h:1')).toBe('https://a/b');
  });
});

describe('marker colour by state', () => {
  it('online green, offline grey, connected by someone amber', () => {
    expect(markerColor(1)).toBe(MARKER_COLORS[1]);
    expect(markerColor(2)).toBe(MARKER_COLORS[2]);
    expect(markerColor(3)).toBe(MARKER_COLORS[3]);
    expect(new Set([markerColor(1), markerColor(2), markerColor(3)]).size).toBe(3);
    expect(markerColor(99)).toBe(MARKER_COLORS[2]);
  });

  it('a device held by the signed-in user has a colour of its own, on the marker and in the cluster ring', () => {
    expect(markerColor(3, true)).toBe(MARKER_COLOR_MINE);
    expect(new Set([markerColor(1), markerColor(2), markerColor(3), markerColor(3, true)]).size).toBe(4);
    // Only a held device is "mine": an online one stays green.
    expect(markerColor(1, true)).toBe(MARKER_COLORS[1]);
    const [mine, other] = devicesToGeoJson([{ ...device('SIM-1', 3), mine: true }, device('SIM-2', 3)], 'offline').features;
    expect(mine!.properties).toMatchObject({ mine: true, color: MARKER_COLOR_MINE });
    expect(other!.properties).toMatchObject({ mine: false, color: MARKER_COLORS[3] });
    const el = deviceElement(mine!.properties);
    expect(el.dataset.mine).toBe('1');
    expect(el.style.getPropertyValue('--marker-color')).toBe(MARKER_COLOR_MINE);
    expect(clusterElement(4, { online: 1, offline: 1, busy: 1, mine: 1 }).dataset.count).toBe('4');
  });

  it('marker elements carry test ids, state, colour, and a drone rotated by heading when flying', () => {
    const [f] = devicesToGeoJson([device('SIM-1', 3, { flightState: 2, heading: 90, drone: true })], 'offline').features;
    const el = deviceElement(f!.properties);
    expect(el.getAttribute('data-testid')).toBe('marker-SIM-1');
    expect(el.dataset.state).toBe('3');
    expect(el.style.getPropertyValue('--marker-color')).toBe(MARKER_COLORS[3]);
    expect(el.dataset.kind).toBe('drone');
    expect(el.querySelector<HTMLElement>('.fleet-marker-icon')!.style.transform).toBe('rotate(90deg)');
    updateDeviceElement(el, { ...f!.properties, state: 1, flying: false, drone: false }, true);
    expect(el.dataset.state).toBe('1');
    expect(el.dataset.kind).toBe('nest');
    expect(el.classList.contains('is-selected')).toBe(true);
    expect(el.querySelector<HTMLElement>('.fleet-marker-icon')!.style.transform).toBe('');
    expect(isFlying(2)).toBe(true);
    expect(isFlying(4)).toBe(false);
    expect(isFlying(null)).toBe(false);
    const cluster = clusterElement(5, { online: 3, offline: 1, busy: 1 });
    expect(cluster.dataset.count).toBe('5');
    expect(cluster.textContent).toBe('5');
  });

  it('updates a cluster bubble and a marker in place, writing nothing when their figures are the same', () => {
    const cluster = clusterElement(5, { online: 5, offline: 0, busy: 0 });
    expect(cluster.style.width).toBe('36px');
    updateClusterElement(cluster, 120, { online: 60, offline: 60, busy: 0 });
    expect(cluster.dataset.count).toBe('120');
    expect(cluster.textContent).toBe('120');
    expect(cluster.style.width).toBe('52px');
    // The same figures again: the element is left as it is (a test write shows whether it was touched).
    cluster.style.width = '1px';
    updateClusterElement(cluster, 120, { online: 60, offline: 60, busy: 0 });
    expect(cluster.style.width).toBe('1px');
    updateClusterElement(cluster, 120, { online: 59, offline: 61, busy: 0 });
    expect(cluster.style.width).toBe('52px');

    const [f] = devicesToGeoJson([device('SIM-2', 1, { heading: 10, drone: true })], 'offline').features;
    const el = deviceElement(f!.properties);
    el.style.setProperty('--marker-color', 'red');
    // A parked drone's heading is not drawn: nothing to write.
    updateDeviceElement(el, { ...f!.properties, heading: 200 }, false);
    expect(el.style.getPropertyValue('--marker-color')).toBe('red');
    updateDeviceElement(el, { ...f!.properties, state: 2 }, false);
    expect(el.dataset.state).toBe('2');
    expect(el.style.getPropertyValue('--marker-color')).toBe(MARKER_COLORS[2]);
  });
});

describe('geolocation with city-search fallback', () => {
  afterEach(() => vi.useRealTimers());

  const geoOk = { getCurrentPosition: (ok: PositionCallback) => ok({ coords: { latitude: 30, longitude: 120 } } as GeolocationPosition) };
  const geoDenied = {
    getCurrentPosition: (_ok: PositionCallback, err?: PositionErrorCallback | null) =>
      err?.({ code: 1, message: 'denied' } as GeolocationPositionError),
  };
  const geoSilent = { getCurrentPosition: () => undefined };

  it('uses the browser position first and does not search', async () => {
    const citySearch = vi.fn();
    await expect(locate({ geolocation: geoOk, citySearch })).resolves.toEqual({ lat: 30, lng: 120, source: 'geolocation' });
    expect(citySearch).not.toHaveBeenCalled();
  });

  it('falls back to the city search when geolocation fails or is missing', async () => {
    const citySearch = vi.fn(async () => ({ lat: 1, lng: 2, name: 'X' }));
    await expect(locate({ geolocation: geoDenied, citySearch })).resolves.toEqual({ lat: 1, lng: 2, source: 'city', city: 'X' });
    await expect(locate({ geolocation: null, citySearch })).resolves.toMatchObject({ source: 'city' });
    expect(citySearch).toHaveBeenCalledTimes(2);
  });

  it('gives geolocation GEOLOCATION_TIMEOUT_MS, then searches', async () => {
    vi.useFakeTimers();
    const order: string[] = [];
    const citySearch = vi.fn(async () => {
      order.push('city');
      return { lat: 1, lng: 2 };
    });
    const p = locate({ geolocation: { getCurrentPosition: () => void order.push('geo') }, citySearch });
    await vi.advanceTimersByTimeAsync(GEOLOCATION_TIMEOUT_MS - 1);
    expect(citySearch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(p).resolves.toMatchObject({ source: 'city' });
    expect(order).toEqual(['geo', 'city']);
    expect(GEOLOCATION_TIMEOUT_MS).toBe(1000);
  });

  it('rejects when both fail', async () => {
    vi.useFakeTimers();
    const p = locate({ geolocation: geoSilent, citySearch: async () => null });
    const assertion = expect(p).rejects.toBeInstanceOf(LocateError);
    await vi.advanceTimersByTimeAsync(GEOLOCATION_TIMEOUT_MS);
    await assertion;
    await expect(locate({ geolocation: geoDenied, citySearch: async () => Promise.reject(new Error('offline')) })).rejects.toMatchObject({
      reasons: { geolocation: 'denied', city: 'offline' },
    });
  });

  it('the built-in city table answers in both languages', async () => {
    expect(searchCity('深圳')?.en).toBe('Shenzhen');
    expect(searchCity('深圳市')?.en).toBe('Shenzhen');
    expect(searchCity('shenzhen')?.zh).toBe('深圳');
    expect(searchCity("xi'an")?.zh).toBe('西安');
    expect(searchCity('Atlantis')).toBeNull();
    expect(searchCity('  ')).toBeNull();
    await expect(locate({ geolocation: null })).resolves.toMatchObject({ source: 'city', lat: 22.5431, lng: 114.0579 });
  });
});
