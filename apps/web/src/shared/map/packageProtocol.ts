import { addProtocol } from 'maplibre-gl';
import { ResultCode } from '@nest/contracts';
import { call } from '../request';
import { PACKAGE_PROTOCOL, absoluteUrl, basemapStyle } from './basemaps';
import { markPackageGone } from './packages';

const URL_PATTERN = new RegExp(`^${PACKAGE_PROTOCOL}://([A-Za-z0-9-]{1,64})\\?theme=(dark|light)$`);

/**
 * MapLibre fetches a package basemap's style (`nestpkg://<id>?theme=dark|light`, basemaps.ts) through the
 * authenticated /map/packageStyle call: the style names the package's tiles by signed, expiring URLs, so
 * tile requests need no header. A package the server no longer has (deleted, or not the user's) is marked
 * gone and the offline basemap's style is drawn instead.
 */
addProtocol(PACKAGE_PROTOCOL, async (params) => {
  const m = URL_PATTERN.exec(params.url);
  if (!m) throw new Error(`not a package style: ${params.url}`);
  const [, id = '', named] = m;
  const theme = named === 'dark' ? 'dark' : 'light';
  try {
    return { data: await call('mapPackageStyle', { id, theme }, { quiet: true }) };
  } catch (err) {
    const code = (err as { code?: number }).code;
    if (code === ResultCode.NOT_FOUND_OBJECT || code === ResultCode.NO_PERMISSION) markPackageGone(id);
    const offline = basemapStyle('offline', theme === 'light' ? 'concise' : 'default') as string;
    const res = await fetch(absoluteUrl(offline), { credentials: 'same-origin' });
    return { data: await res.json() };
  }
});
