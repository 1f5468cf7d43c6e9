import { showText, showTexts, type DeviceTypeKeyValue, type Lang } from '@nest/contracts';
import { RawJson, oneByte } from '../calls/raw-json.js';
import type { DeviceRow } from '../db/schema.js';
import type { DeviceLink } from '../link/adapter.js';
import type { MediaLinks } from '../videos/api.js';
import { inScope, sees, type DeviceDirectory, type Scope } from './directory.js';
import { STATUS_HELD, STATUS_OFFLINE, STATUS_ONLINE, type DeviceStatusBoard } from './status.js';
import { deviceName, presentDevice } from './store.js';
import { positionOf } from './view.js';

/** What a list query selects (the caller's view scope, the type filter, the keyword). */
export interface ListQuery {
  scope: Scope;
  categories: readonly DeviceTypeKeyValue[] | 'all';
  /** Lower-cased words, any of which in any searched column selects a device (contracts demoSearchTerms); null: no search. */
  terms: readonly string[] | null;
  lang: Lang;
}

/** The columns /device/list searches (as the SQL search did: sn, drone sn, airport and drone names, address). */
const SEARCHED = ['sn_id', 'uav_sn', 'airport_name', 'uav_name', 'address'] as const;

/**
 * The registry part of an item in one language as JSON text, made once per row object: `head` the fields
 * before the state (`{"id":…,"company":…`), `tail` those after it up to the name (`,"enabled":…,"name":…`).
 */
interface StaticPart {
  head: string;
  tail: string;
}

/**
 * One device's item in one language: the registry part (made once per row object), and the last item text
 * with the live inputs it was made from, reused while each input is the same (a device on its nest reports
 * the same position in every telemetry message).
 */
interface ItemMemo {
  part: StaticPart;
  text: string;
  online: boolean;
  holderId: string | null;
  holderNick: string | null;
  lat: number | null;
  lng: number | null;
  url: string;
  shared: boolean;
}

/** The last answer of one page of one query: answered again as it is while its selection and every item's text stay the same. */
interface PageMemo {
  rows: DeviceRow[];
  items: string[];
  answer: RawJson;
}

/** Matching devices of one query in list order, kept while the directory and every device's presence stay as they were. */
interface Selection {
  generation: number;
  presence: number;
  rows: DeviceRow[];
}

/** Cached selections at most; past it the cache starts again (queries are few: companies × filters × languages). */
const MAX_SELECTIONS = 256;
/** Kept page answers at most, likewise. */
const MAX_PAGES = 256;

/**
 * /device/list without a query or a sort per call: the registered devices come from the directory (the
 * rows the device link and the map use: reloaded after every change made through this server, every 30 s
 * and when an unknown device speaks), ordered online first, then by name in the caller's language's
 * collation, then by sn.
 *
 * - The name order of all devices is made once per language and directory load (`generation`).
 * - A query's selection (scope, type, search) in list order is kept until the directory is loaded again
 *   or any device comes online or goes offline (the link's `online` events).
 * - An item's registry part in the caller's language (catalogue texts shown) is made once per row object;
 *   the live part (status, holder, position, video URL) is read for the page's items only, and the item's
 *   text is made again only when one of them changed.
 * - A page whose selection and item texts are all as last time answers the same RawJson object (whose
 *   encoded body the call layer keeps), so an unchanged page is neither joined nor encoded again.
 */
export class DeviceListIndex {
  private readonly byName = new Map<Lang, { generation: number; rows: DeviceRow[] }>();
  private readonly selections = new Map<string, Selection>();
  private readonly pages = new Map<string, PageMemo>();
  private readonly items = { zh: new WeakMap<DeviceRow, ItemMemo>(), en: new WeakMap<DeviceRow, ItemMemo>() };
  private readonly collators = { zh: new Intl.Collator('zh-CN'), en: new Intl.Collator('en') };
  /** The process's default collation, the tie-break on sn (as String#localeCompare without a locale). */
  private readonly snOrder = new Intl.Collator();
  /** Counts presence changes: a selection made before the last one has the old online-first order. */
  private presence = 0;
  /** Live video URLs (JSON strings) by sn, valid while the signer answers `liveStamp` for the probe (same secret, base and expiry). */
  private liveUrls = new Map<string, string>();
  private liveStamp = '';

  constructor(
    private readonly directory: DeviceDirectory,
    private readonly link: DeviceLink,
    private readonly status: DeviceStatusBoard,
  ) {
    link.on('online', () => this.presence++);
  }

  /**
   * One page of the query's devices and how many there are, as the JSON text of the answer's data
   * (`{"list":[…],"total":n}`, contracts deviceListItemSchema items, catalogue texts in the query's language).
   */
  page(query: ListQuery, page: number, size: number, links: MediaLinks, liveBase: string): RawJson {
    const { key, rows } = this.select(query);
    const from = page * size;
    const items: string[] = [];
    if (from < rows.length) {
      this.refreshLiveUrls(links, liveBase);
      const end = Math.min(rows.length, from + size);
      const now = Date.now();
      for (let i = from; i < end; i++) items.push(this.item(rows[i]!, query, links, liveBase, now));
    }
    const pageKey = `${key}\u0000${page}\u0000${size}`;
    const last = this.pages.get(pageKey);
    if (last && last.rows === rows && sameItems(last.items, items)) return last.answer;
    const answer = new RawJson(`{"list":[${items.join(',')}],"total":${rows.length}}`);
    if (this.pages.size >= MAX_PAGES) this.pages.clear();
    this.pages.set(pageKey, { rows, items, answer });
    return answer;
  }

  private select(query: ListQuery): { key: string; rows: DeviceRow[] } {
    const generation = this.directory.generation;
    const shared = query.scope.shared?.size ? [...query.scope.shared].sort().join(',') : '';
    const key = [
      query.lang,
      query.scope.all ? '*' : query.scope.companyId,
      shared,
      query.categories === 'all' ? '*' : query.categories.join(','),
      query.terms ? query.terms.join('\n') : '',
    ].join('\u0000');
    const hit = this.selections.get(key);
    if (hit && hit.generation === generation && hit.presence === this.presence) return { key, rows: hit.rows };
    const online: DeviceRow[] = [];
    const offline: DeviceRow[] = [];
    const categories = query.categories === 'all' ? null : new Set<string>(query.categories);
    for (const row of this.named(query.lang, generation)) {
      if (!sees(query.scope, row)) continue;
      if (categories && !categories.has(row.type)) continue;
      if (query.terms && !matches(row, query.terms)) continue;
      (this.link.isOnline(row.sn_id) ? online : offline).push(row);
    }
    const rows = online.concat(offline);
    if (this.selections.size >= MAX_SELECTIONS) this.selections.clear();
    this.selections.set(key, { generation, presence: this.presence, rows });
    return { key, rows };
  }

  /**
   * Every device of the directory by name in the language's collation, then by sn. A load that changed no
   * name and no sn (the periodic one, most local changes) keeps the order with the new row objects.
   */
  private named(lang: Lang, generation: number): DeviceRow[] {
    const known = this.byName.get(lang);
    if (known && known.generation === generation) return known.rows;
    const current = [...this.directory.all()];
    let rows: DeviceRow[] | null = null;
    if (known && known.rows.length === current.length) {
      rows = [];
      for (const old of known.rows) {
        const row = this.directory.get(old.sn_id);
        if (!row || deviceName(row) !== deviceName(old)) {
          rows = null;
          break;
        }
        rows.push(row);
      }
    }
    if (!rows) {
      const byName = this.collators[lang];
      const keyed = current.map((row) => ({ row, name: deviceName(row) }));
      keyed.sort((a, b) => byName.compare(a.name, b.name) || this.snOrder.compare(a.row.sn_id, b.row.sn_id));
      rows = keyed.map((k) => k.row);
    }
    this.byName.set(lang, { generation, rows });
    return rows;
  }

  /** One item's JSON: the registry part as made before, the live part (status, holder, position, video URL) read now. */
  private item(row: DeviceRow, query: ListQuery, links: MediaLinks, liveBase: string, now: number): string {
    const sn = row.sn_id;
    // One lookup for presence and telemetry (a device is online when the link's live device says so, as isOnline reads it).
    const live = this.link.device(sn);
    const online = live?.online ?? false;
    const holder = this.status.holder(sn, now);
    const holderId = holder ? holder.u_id : null;
    const holderNick = holder ? holder.nick : null;
    const position = positionOf(row, live?.telemetry);
    const lat = position ? position.lat : null;
    const lng = position ? position.lng : null;
    // The console asks for video when it opens the device (push 200); the player retries until it plays.
    const url = online ? this.liveUrl(links, liveBase, sn) : '';
    const shared = !inScope(query.scope, row);
    const memos = this.items[query.lang];
    let memo = memos.get(row);
    if (memo) {
      if (
        memo.online === online &&
        memo.holderId === holderId &&
        memo.holderNick === holderNick &&
        memo.lat === lat &&
        memo.lng === lng &&
        memo.url === url &&
        memo.shared === shared
      ) {
        return memo.text;
      }
    } else {
      memo = { part: staticPart(row, query.lang), text: '', online, holderId, holderNick, lat, lng, url, shared };
      memos.set(row, memo);
    }
    const part = memo.part;
    // The status board's status (DeviceStatusBoard.status) from the two lookups the item needs anyway.
    const state = online ? (holder ? STATUS_HELD : STATUS_ONLINE) : STATUS_OFFLINE;
    // Keys in the order the answer has always had: the registry fields with the state among them, the name, the live fields.
    memo.text = oneByte(
      `${part.head},"state":${state}${part.tail}` +
        `,"is_push_on":${online}` +
        `,"connected_by":${holder ? JSON.stringify({ u_id: holder.u_id, nick: showText(holder.nick, query.lang) }) : 'null'}` +
        `,"position":${JSON.stringify(position)}` +
        `,"stream_uav_list":${online ? `[${url}]` : '[]'}` +
        `${shared ? ',"shared":true' : ''}}`,
    );
    memo.online = online;
    memo.holderId = holderId;
    memo.holderNick = holderNick;
    memo.lat = lat;
    memo.lng = lng;
    memo.url = url;
    memo.shared = shared;
    return memo.text;
  }

  /** One signature per answer instead of one per online device: the URLs stay while the probe's does. */
  private refreshLiveUrls(links: MediaLinks, base: string): void {
    const stamp = links.live(base, '');
    if (stamp !== this.liveStamp) {
      this.liveStamp = stamp;
      this.liveUrls = new Map();
    }
  }

  /** The device's live video URL as a JSON string. */
  private liveUrl(links: MediaLinks, base: string, sn: string): string {
    let url = this.liveUrls.get(sn);
    if (url === undefined) {
      url = JSON.stringify(links.live(base, sn));
      this.liveUrls.set(sn, url);
    }
    return url;
  }
}

/** An item's registry part in one language (catalogue texts shown), as JSON text around the state. */
function staticPart(row: DeviceRow, lang: Lang): StaticPart {
  const { state: _, enabled, create_time, ...head } = showTexts(presentDevice(row, 2), lang);
  void _;
  const tail = JSON.stringify({ enabled, create_time, name: showText(deviceName(row), lang) });
  return { head: oneByte(JSON.stringify(head).slice(0, -1)), tail: oneByte(`,${tail.slice(1, -1)}`) };
}

/** Whether two pages' item texts are the same (the same strings, mostly the very same objects). */
function sameItems(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function matches(row: DeviceRow, terms: readonly string[]): boolean {
  for (const column of SEARCHED) {
    const value = row[column].toLowerCase();
    for (const t of terms) if (value.includes(t)) return true;
  }
  return false;
}
