/**
 * The broker rights of a DJI Cloud API gateway (a DJI Dock 2 / Dock 3, or DJI Pilot 2 on its remote
 * controller): its MQTT user name is the gateway sn, and it may use exactly the DJI topics of that gateway
 * and the osd/state topics of its registered drone (docs/dji.md; DJI Cloud API topics: `sys/product/...`
 * for topology, `thing/product/...` for the thing model). The embedded broker, the dynamic-security roles
 * and the ACL file of an external Mosquitto are all built from these lists.
 */

/** Topics a gateway publishes on (device -> server) about itself. */
const GATEWAY_UP = ['osd', 'state', 'events', 'requests', 'services_reply', 'property/set_reply', 'drc/up'] as const;
/** Topics a gateway publishes on about its drone. */
const DRONE_UP = ['osd', 'state'] as const;
/** Topics a gateway subscribes to (server -> device). */
const GATEWAY_DOWN = ['services', 'events_reply', 'requests_reply', 'state_reply', 'property/set', 'drc/down'] as const;

/** Every DJI Cloud API topic: what the server's own account may use. */
export const DJI_TOPIC_FILTERS = ['sys/product/#', 'thing/product/#'] as const;

const thing = (sn: string, rest: string): string => `thing/product/${sn}/${rest}`;

/** Every topic a gateway may publish on; `droneSn` empty when it has no drone registered. */
export function djiPublishTopics(gatewaySn: string, droneSn: string): string[] {
  return [
    `sys/product/${gatewaySn}/status`,
    ...GATEWAY_UP.map((t) => thing(gatewaySn, t)),
    ...(droneSn && droneSn !== gatewaySn ? DRONE_UP.map((t) => thing(droneSn, t)) : []),
  ];
}

/** Every topic a gateway may subscribe to (and receive on). */
export function djiSubscribeTopics(gatewaySn: string): string[] {
  return [`sys/product/${gatewaySn}/status_reply`, ...GATEWAY_DOWN.map((t) => thing(gatewaySn, t))];
}

/** May the gateway publish on this topic? Exact names only: no wildcard is ever a publish topic. */
export const djiPublishAllowed = (gatewaySn: string, droneSn: string, topic: string): boolean =>
  djiPublishTopics(gatewaySn, droneSn).includes(topic);

/** May the gateway subscribe to this filter? Exact names only, so no wildcard reaches another device. */
export const djiSubscribeAllowed = (gatewaySn: string, filter: string): boolean => djiSubscribeTopics(gatewaySn).includes(filter);

/**
 * The same rights as Mosquitto ACL lines for one user (an ACL file has no pattern that could name the
 * drone, so each DJI account gets its own `user` block).
 */
export function djiAclLines(gatewaySn: string, droneSn: string): string[] {
  return [
    `user ${gatewaySn}`,
    ...djiPublishTopics(gatewaySn, droneSn).map((t) => `topic write ${t}`),
    ...djiSubscribeTopics(gatewaySn).map((t) => `topic read ${t}`),
  ];
}
