import { markerColor, type MarkerProps } from './markers';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Quadcopter seen from above, nose up (rotated by the heading). */
const DRONE_PATH =
  'M12 3l2.2 4.6h-1.3v3.1l5.6 3.2v1.7l-5.6-1.9v3.6l1.8 1.4V20L12 19l-2.7 1v-1.3l1.8-1.4v-3.6l-5.6 1.9v-1.7l5.6-3.2V7.6H9.8z';
/** A nest: a hangar with a landing pad. */
const NEST_PATH = 'M4 11l8-6 8 6v8H4zM8 19v-5h8v5M10.5 16.5h3';

function svg(path: string, filled: boolean): SVGSVGElement {
  const el = document.createElementNS(SVG_NS, 'svg');
  el.setAttribute('viewBox', '0 0 24 24');
  el.setAttribute('aria-hidden', 'true');
  const p = document.createElementNS(SVG_NS, 'path');
  p.setAttribute('d', path);
  if (filled) p.setAttribute('fill', 'currentColor');
  else {
    p.setAttribute('fill', 'none');
    p.setAttribute('stroke', 'currentColor');
    p.setAttribute('stroke-width', '1.8');
    p.setAttribute('stroke-linejoin', 'round');
  }
  el.appendChild(p);
  return el;
}

/** The HTML element of one device marker (kept and updated while the device stays on screen). */
export function deviceElement(props: MarkerProps): HTMLElement {
  const el = document.createElement('div');
  el.className = 'fleet-marker';
  el.setAttribute('role', 'button');
  el.tabIndex = 0;
  const icon = document.createElement('div');
  icon.className = 'fleet-marker-icon';
  const label = document.createElement('div');
  label.className = 'fleet-marker-label';
  el.append(icon, label);
  updateDeviceElement(el, props, false);
  return el;
}

/**
 * Applies status colour, icon (a drone rotated by heading when flying) and name to a marker element;
 * nothing is written when they are unchanged (the map calls this for every marker on every frame it draws).
 */
export function updateDeviceElement(el: HTMLElement, props: MarkerProps, selected: boolean): void {
  const key = `${props.sn}/${props.state}/${props.mine ? 1 : 0}/${props.flying ? 1 : 0}/${props.drone ? 1 : 0}/${props.flying ? Math.round(props.heading) : ''}/${selected ? 1 : 0}/${props.name}`;
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  const kind = props.flying || props.drone ? 'drone' : 'nest';
  el.dataset.testid = `marker-${props.sn}`;
  el.setAttribute('data-testid', `marker-${props.sn}`);
  el.dataset.sn = props.sn;
  el.dataset.state = String(props.state);
  el.dataset.mine = props.mine ? '1' : '0';
  el.dataset.kind = kind;
  el.dataset.flying = props.flying ? '1' : '0';
  el.style.setProperty('--marker-color', markerColor(props.state, props.mine));
  el.classList.toggle('is-selected', selected);
  el.classList.toggle('is-flying', props.flying);
  el.title = props.name;
  const icon = el.querySelector<HTMLElement>('.fleet-marker-icon')!;
  if (icon.dataset.kind !== kind) {
    icon.dataset.kind = kind;
    icon.replaceChildren(svg(kind === 'drone' ? DRONE_PATH : NEST_PATH, kind === 'drone'));
  }
  icon.style.transform = kind === 'drone' && props.flying ? `rotate(${props.flying ? Math.round(props.heading) : ''}deg)` : '';
  const label = el.querySelector<HTMLElement>('.fleet-marker-label')!;
  if (label.textContent !== props.name) label.textContent = props.name;
}

/** What a cluster bubble shows: how many devices, and how many of them are in each state. */
export interface ClusterCounts {
  online: number;
  offline: number;
  busy: number;
  mine?: number;
}

/**
 * A cluster bubble: the count, ringed by the share of online / held by the signed-in user / held by
 * someone else / offline devices.
 */
export function clusterElement(count: number, counts: ClusterCounts): HTMLElement {
  const el = document.createElement('div');
  el.className = 'fleet-cluster';
  el.setAttribute('role', 'button');
  el.dataset.testid = 'marker-cluster';
  el.setAttribute('data-testid', 'marker-cluster');
  el.appendChild(document.createElement('span'));
  updateClusterElement(el, count, counts);
  return el;
}

/** Applies a cluster's count and state shares to its bubble; nothing is written when they are unchanged. */
export function updateClusterElement(el: HTMLElement, count: number, counts: ClusterCounts): void {
  const mine = counts.mine ?? 0;
  const key = `${count}/${counts.online}/${mine}/${counts.busy}/${counts.offline}`;
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.dataset.count = String(count);
  const total = Math.max(1, counts.online + counts.offline + counts.busy + mine);
  const a = (counts.online / total) * 360;
  const m = a + (mine / total) * 360;
  const b = m + (counts.busy / total) * 360;
  el.style.background = `conic-gradient(${markerColor(1)} 0 ${a}deg, ${markerColor(3, true)} ${a}deg ${m}deg, ${markerColor(3)} ${m}deg ${b}deg, ${markerColor(2)} ${b}deg 360deg)`;
  el.querySelector('span')!.textContent = String(count);
  const size = count < 10 ? 36 : count < 100 ? 44 : 52;
  el.style.width = el.style.height = `${size}px`;
}
