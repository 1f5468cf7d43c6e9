import { useCallback, useEffect, useMemo, useState } from 'react';
import { PUSH_TEXT, PushMsgId, SocketState, type CameraSettingsPatch, type Sticks } from '@nest/contracts';
import { getLang } from '../../../shared/i18n';
import { getPush, onPush, onPushFailure, usePushState } from '../../../shared/push';
import { CommandTracker, type CommandState } from './commands';

/** Fields of a 401 besides sn_id and cmd_id. */
export interface ControlFields {
  cmd_type: number;
  action_cmd?: number;
  value?: number | string;
  sticks?: Sticks;
  settings?: CameraSettingsPatch;
}

export interface DeviceCommand {
  /** Sends a 401 for an action `key` (same key re-sent while unanswered keeps its cmd_id). */
  control: (key: string, fields: ControlFields) => CommandState | null;
  /** Sends a 473 (1 pause, 2 continue, 3 interrupt). */
  process: (controlCmd: 1 | 2 | 3) => CommandState | null;
  /** Fire-and-forget 401 (stick frames): no cmd_id, nothing tracked. */
  raw: (fields: ControlFields) => boolean;
  /** The latest state of each action key. */
  states: Readonly<Record<string, CommandState>>;
  /** Is this action waiting for its answer? */
  busy: (key: string) => boolean;
  /** The latest command that failed (refused, or its answer lost), until that action is sent again. */
  refusal: CommandState | null;
}

/**
 * Control commands of one device over the push connection, with replies correlated by cmd_id. Failures
 * are shown by the push client (SPEC 8 texts); the outcome is also kept here for the panel, which shows
 * the latest refusal in the server's words. A refusal without reply data (40018, 40100, 40263) and a
 * socket that closed end the commands still waiting, which would otherwise stay "sending".
 */
export function useDeviceCommand(sn: string): DeviceCommand {
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new tracker for each device: one device's replies never settle another's commands
  const tracker = useMemo(() => new CommandTracker(), [sn]);
  const [states, setStates] = useState<Record<string, CommandState>>({});
  const [lastFailed, setLastFailed] = useState<string | null>(null);

  useEffect(() => {
    setStates({});
    setLastFailed(null);
    const offState = tracker.subscribe((s) => {
      setStates((prev) => ({ ...prev, [s.key]: s }));
      if (s.status === 'failed') setLastFailed(s.key);
    });
    const receive = (msgId: number) => (data: unknown, msg: { code?: number; msg?: string }) => tracker.receive(msgId, msg.code, data, msg.msg, getLang());
    const off401 = onPush(PushMsgId.CONTROL, receive(PushMsgId.CONTROL));
    const off473 = onPush(PushMsgId.PROCESS_CONTROL, receive(PushMsgId.PROCESS_CONTROL));
    const offFail = onPushFailure((m) => {
      if (m.msg_id === PushMsgId.CONTROL || m.msg_id === PushMsgId.PROCESS_CONTROL) tracker.receive(m.msg_id, m.code, m.data, m.msg, getLang());
    });
    return () => {
      offState();
      off401();
      off473();
      offFail();
    };
  }, [tracker]);

  // The socket is no longer open (closed, or already replaced by a new one still connecting): the answers
  // of the commands sent on it will never come. Nothing can be sent while it is not open.
  const pushState = usePushState();
  useEffect(() => {
    if (pushState !== SocketState.OPEN) tracker.failWaiting(null, PUSH_TEXT.closed[getLang()]);
  }, [pushState, tracker]);

  const sendTracked = useCallback(
    (key: string, msgId: number, data: Record<string, unknown>): CommandState | null => {
      const s = tracker.begin(key, msgId);
      try {
        const push = getPush();
        if (!push) throw new Error('closed');
        push.send(msgId, { ...data, sn_id: sn, cmd_id: s.cmdId });
        return s;
      } catch (err) {
        tracker.fail(s.cmdId, err instanceof Error ? err.message : String(err));
        return null;
      }
    },
    [tracker, sn],
  );

  const control = useCallback(
    (key: string, f: ControlFields) => sendTracked(key, PushMsgId.CONTROL, { action_cmd: 0, value: 0, ...f }),
    [sendTracked],
  );
  const process = useCallback((controlCmd: 1 | 2 | 3) => sendTracked(`process-${controlCmd}`, PushMsgId.PROCESS_CONTROL, { control_cmd: controlCmd }), [sendTracked]);
  const raw = useCallback(
    (f: ControlFields) => {
      try {
        const push = getPush();
        if (!push) return false;
        push.send(PushMsgId.CONTROL, { action_cmd: 0, value: 0, ...f, sn_id: sn });
        return true;
      } catch {
        return false;
      }
    },
    [sn],
  );
  const busy = useCallback((key: string) => states[key]?.status === 'sending', [states]);
  const latest = lastFailed === null ? undefined : states[lastFailed];
  const refusal = latest?.status === 'failed' ? latest : null;

  return { control, process, raw, states, busy, refusal };
}
