import { useEffect, useSyncExternalStore } from 'react';
import { calls, holds, type MapPackage } from '@nest/contracts';
import { call } from '../request';
import { useUser } from '../session';

/**
 * The offline map packages of the user's company, as every map's basemap switch offers them: read once
 * per page (/map/packageList) by the first map that needs them, replaced when the offline-map screen has
 * read them again (after an upload or a delete). Packages a style request found gone are remembered, so
 * the maps showing one fall back to the offline basemap with a notice.
 */
interface State {
  list: readonly MapPackage[];
  /** The list has been read (or the user may not read it: then it stays empty). */
  loaded: boolean;
  /** Packages the server no longer has (deleted since the list was read). */
  gone: ReadonlySet<string>;
}

/** Enough for any company: a package is a whole area's map. */
const LIST_SIZE = 200;

let state: State = { list: [], loaded: false, gone: new Set() };
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

function set(next: Partial<State>): void {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The list as the offline-map screen read it: every map's switch shows the same. */
export function setMapPackages(list: readonly MapPackage[]): void {
  const ids = new Set(list.map((p) => p.id));
  set({ list, loaded: true, gone: new Set([...state.gone].filter((id) => !ids.has(id))) });
}

/** A package the server answered as missing (its style could not be read). */
export function markPackageGone(id: string): void {
  if (state.gone.has(id)) return;
  set({ gone: new Set([...state.gone, id]), list: state.list.filter((p) => p.id !== id) });
}

/** Reads the list once (later calls share the first read); `force` reads it again. */
export function loadMapPackages(canList: boolean, force = false): Promise<void> {
  if (!canList) {
    if (!state.loaded) set({ loaded: true });
    return Promise.resolve();
  }
  if (loading && !force) return loading;
  if (state.loaded && !force) return Promise.resolve();
  loading = call('mapPackageList', { page: 0, size: LIST_SIZE }, { quiet: true })
    .then((res) => setMapPackages(res?.list ?? []))
    .catch(() => {
      // Unreadable now (network): the switch simply offers no packages; a later map tries again.
      loading = null;
    });
  return loading;
}

/** Forgets everything (sign-out, tests). */
export function resetMapPackages(): void {
  loading = null;
  set({ list: [], loaded: false, gone: new Set() });
}

/** The company's packages for a map: read on first use when the user may list them. */
export function useMapPackages(): State {
  const user = useUser();
  const canList = holds(user?.fun_list, calls.mapPackageList.access);
  useEffect(() => {
    void loadMapPackages(canList);
  }, [canList]);
  return useSyncExternalStore(subscribe, () => state);
}

export const mapPackagesNow = (): State => state;
