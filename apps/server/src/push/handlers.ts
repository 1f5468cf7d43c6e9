import type { DeviceRow } from '../db/schema.js';
import type { PushClient, Verified } from './client.js';

/**
 * One incoming push message that passed the hub's pipeline: a verified socket whose session is live
 * (read again first when the handler asked for a fresh one), within its flood window.
 */
export interface PushRequest {
  msgId: number;
  /** The frame's `data`, not yet validated (the handler parses it with its contracts schema). */
  body: Record<string, unknown>;
  client: PushClient;
  /** The socket's user as just checked: scope (company, shares), functions. */
  user: Verified;
  /** The device when registered and visible to the user (company scope or shared), else undefined. */
  visibleDevice(sn: string): DeviceRow | undefined;
}

/** The handler of one push msg_id, owned by the feature that answers it. */
export interface PushHandler {
  /** ms: read the session again first when it was last read longer ago (a command acts on the user's rights). */
  freshSession?: number;
  /** Answers on `request.client`; work that may take long is run without awaiting (the socket's queue goes on). */
  handle(request: PushRequest): void | Promise<void>;
}

/** Push handlers by msg_id. */
export type PushHandlers = Readonly<Record<number, PushHandler>>;
