import { DOMParser } from '@xmldom/xmldom';
import type { Document, Element, Node } from '@xmldom/xmldom';
import type { ImportLimits } from './limits.js';
import { scanXml } from './limits.js';
import { T, fail } from './texts.js';

/**
 * XML in and out without DOM globals: @xmldom/xmldom parses (after `scanXml` has refused DOCTYPE/ENTITY
 * and bounded size and depth), small helpers walk children by local name, and `xmlEscape` writes.
 * Tree walks here are bounded by the nesting depth scanXml enforced; xmldom's recursive helpers
 * (getElementsByTagName) are avoided.
 */

/** Prefixes that files use without declaring them (a fatal error for a namespace-aware parser otherwise). */
const KNOWN_PREFIXES: Record<string, string> = {
  gx: 'http://www.google.com/kml/ext/2.2',
  kml: 'http://www.opengis.net/kml/2.2',
  atom: 'http://www.w3.org/2005/Atom',
  wpml: 'http://www.dji.com/wpmz/1.0.2',
  mis: 'www.dji.com',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
};

export type { Document, Element };

export function parseXml(text: string, limits: ImportLimits): Document {
  scanXml(text, limits);
  let first: string | undefined;
  const parser = new DOMParser({
    xmlns: KNOWN_PREFIXES,
    onError: (level: string, message: string, context?: unknown) => {
      if (level === 'warning') return;
      const line = (context as { locator?: { lineNumber?: number } } | undefined)?.locator?.lineNumber;
      first ??= line ? `${message} (line ${line})` : message;
      throw new Error(message);
    },
  });
  let doc: Document;
  try {
    doc = parser.parseFromString(text, 'text/xml');
  } catch (e) {
    return fail(T.xmlMalformed(first ?? (e instanceof Error ? e.message : String(e))));
  }
  checkDepth(doc, limits.maxXmlDepth);
  return doc;
}

/**
 * The nesting depth of the parsed tree, walked without recursion. scanXml's count is a cheap first
 * bound, but the parser is more lenient than the scan (unquoted attribute values holding quotes can
 * hide tags from it), so the tree the readers walk recursively is measured itself.
 */
function checkDepth(doc: Document, max: number): void {
  const stack: [Node, number][] = [];
  for (let n = doc.firstChild; n; n = n.nextSibling) if (isElement(n)) stack.push([n, 1]);
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > max) fail(T.xmlTooDeep(max));
    for (let c = node.firstChild; c; c = c.nextSibling) if (isElement(c)) stack.push([c, depth + 1]);
  }
}

const isElement = (n: Node | null | undefined): n is Element => !!n && n.nodeType === 1;

/** Element children, optionally only those with local name `name`. */
export function children(el: Element | Document, name?: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (isElement(n) && (name === undefined || n.localName === name)) out.push(n);
  }
  return out;
}

export function child(el: Element | Document, name: string): Element | undefined {
  for (let n = el.firstChild; n; n = n.nextSibling) if (isElement(n) && n.localName === name) return n;
  return undefined;
}

/** Text and CDATA of an element's direct children, joined. */
export function ownText(el: Element): string {
  let s = '';
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 3 || n.nodeType === 4) s += n.nodeValue ?? '';
  }
  return s;
}

export const childText = (el: Element | Document, name: string): string | undefined => {
  const c = child(el, name);
  return c ? ownText(c).trim() : undefined;
};

/** Follows a path of local names: `path(el, 'Polygon', 'outerBoundaryIs', 'LinearRing')`. */
export function path(el: Element, ...names: string[]): Element | undefined {
  let cur: Element | undefined = el;
  for (const n of names) {
    cur = cur && child(cur, n);
    if (!cur) return undefined;
  }
  return cur;
}

/** First descendant with local name `name` (breadth-first, bounded by the document's checked depth). */
export function find(el: Element, name: string): Element | undefined {
  const queue: Element[] = [el];
  for (let i = 0; i < queue.length; i++) {
    for (const c of children(queue[i]!)) {
      if (c.localName === name) return c;
      queue.push(c);
    }
  }
  return undefined;
}

export const xmlEscape = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * A number as exact decimal text: JavaScript's shortest round-trip form (so a value written and read
 * back is the same double), without exponent notation, which some KML readers cannot parse.
 */
export function num(n: number): string {
  const s = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  // Expand exponent notation digit by digit: the same shortest digits, so still exact.
  const [, sign, lead, frac = '', expText] = m;
  const digits = lead! + frac;
  const exp = Number(expText);
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  return sign + (digits.length > exp + 1 ? `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}` : digits + '0'.repeat(exp + 1 - digits.length));
}
