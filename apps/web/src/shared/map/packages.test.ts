import { describe, expect, it } from 'vitest';
import type { MapPackage } from '@nest/contracts';
import { BASEMAP_STORAGE_KEY, basemapStyle, fromMap, isPackageBasemap, packageBasemap, readBasemap, toMap } from './basemaps';
import { viewOutside } from './BasemapNotice';
import { markPackageGone, mapPackagesNow, resetMapPackages, setMapPackages } from './packages';
import { storage } from '../storage';

const ID = '11111111-2222-4333-8444-555555555555';
const pkg = { id: ID, name: 'p', min_lat: 22.4, min_lng: 113.8, max_lat: 22.7, max_lng: 114.2 } as MapPackage;

describe('package basemaps', () => {
  it('are stored like the other choices, drawn as WGS84, and styled through the nestpkg protocol', () => {
    expect(isPackageBasemap(packageBasemap(ID))).toBe(true);
    expect(isPackageBasemap('package:../x')).toBe(false);
    storage.set(BASEMAP_STORAGE_KEY, packageBasemap(ID));
    expect(readBasemap()).toBe(`package:${ID}`);
    storage.set(BASEMAP_STORAGE_KEY, 'package:');
    expect(readBasemap()).toBe('offline');
    expect(toMap(packageBasemap(ID), { lat: 22.5, lng: 114 })).toEqual([114, 22.5]);
    expect(fromMap(packageBasemap(ID), 114, 22.5)).toEqual({ lat: 22.5, lng: 114 });
    expect(basemapStyle(packageBasemap(ID), 'concise')).toBe(`nestpkg://${ID}?theme=light`);
    expect(basemapStyle(packageBasemap(ID), 'default')).toBe(`nestpkg://${ID}?theme=dark`);
  });

  it('keeps the list every switch shows; a package found gone leaves it until a list has it again', () => {
    resetMapPackages();
    setMapPackages([pkg]);
    expect(mapPackagesNow()).toMatchObject({ loaded: true, list: [pkg] });
    markPackageGone(ID);
    expect(mapPackagesNow().list).toEqual([]);
    expect(mapPackagesNow().gone.has(ID)).toBe(true);
    setMapPackages([pkg]);
    expect(mapPackagesNow().gone.has(ID)).toBe(false);
    resetMapPackages();
  });

  it('tells whether a view lies outside a package', () => {
    const view = (w: number, s: number, e: number, n: number) => ({ getBounds: () => ({ getWest: () => w, getSouth: () => s, getEast: () => e, getNorth: () => n }) }) as never;
    expect(viewOutside(view(113.9, 22.5, 114.0, 22.6), pkg)).toBe(false);
    expect(viewOutside(view(116, 39, 117, 40), pkg)).toBe(true);
    expect(viewOutside(view(114.1, 22.6, 115, 23), pkg)).toBe(false);
  });
});
