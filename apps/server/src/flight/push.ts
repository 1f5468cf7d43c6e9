import { PushMsgId, ResultCode, controlCommandData, processControlData } from '@nest/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { COMMAND_RECHECK_MS, unavailableText, type PushHandler, type PushHandlers, type PushRequest } from '../push/hub.js';
import type { Actor, CommandAnswer, FlightRuntime } from './types.js';

/**
 * 401 CONTROL / 473 PROCESS_CONTROL: the session read again when stale (the hub's pipeline), validated
 * (contracts controlCommandData / processControlData, else BAD_REQUEST; a device the user cannot see:
 * NOT_FOUND_OBJECT), then handed to the flight runtime with the user's functions and shares, which refuses
 * a shared device, a user without the control function and one not holding the device's control
 * connection (contracts CONTROL_REQUIREMENTS) before anything is sent; run off the socket's queue (a
 * command may wait seconds for its device; stick frames and heartbeats must not wait behind it) and
 * answered with its CommandAnswer (2000 / 2002); accepted stick frames get none.
 */
export function flightPushHandlers(flight: FlightRuntime, log: Pick<FastifyBaseLogger, 'error'>): PushHandlers {
  const command: PushHandler = {
    freshSession: COMMAND_RECHECK_MS,
    handle: ({ msgId, body, client, user, visibleDevice }: PushRequest) => {
      const control = msgId === PushMsgId.CONTROL ? controlCommandData.safeParse(body) : null;
      const processing = msgId === PushMsgId.CONTROL ? null : processControlData.safeParse(body);
      const snId = control?.success ? control.data.sn_id : processing?.success ? processing.data.sn_id : null;
      if (snId === null) return client.fail(ResultCode.BAD_REQUEST, msgId, 'push.frame.malformed');
      if (!visibleDevice(snId)) return client.fail(ResultCode.NOT_FOUND_OBJECT, msgId);
      const actor: Actor = {
        u_id: user.userId,
        nick: user.nick,
        company_id: user.scope.companyId,
        all: user.scope.all,
        source: 'console',
        funList: user.funList,
        shared: user.scope.shared ?? new Set(),
      };
      const lang = client.lang;
      const run: Promise<CommandAnswer> = control?.success
        ? flight.control(actor, control.data, lang)
        : flight.process(actor, processing!.data!, lang);
      void run
        .then((answer) => {
          if (!answer.silent) client.send(answer.code, msgId, answer.data, answer.msg || undefined);
        })
        .catch((err: unknown) => {
          log.error({ err }, 'push command failed');
          client.send(ResultCode.SERVER_ERROR, msgId, null, unavailableText(err, client.lang));
        });
    },
  };
  return { [PushMsgId.CONTROL]: command, [PushMsgId.PROCESS_CONTROL]: command };
}
