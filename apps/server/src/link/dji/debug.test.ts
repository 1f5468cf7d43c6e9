import { DjiMethod, DjiResult } from '@nest/contracts';
import { describe, expect, it } from 'vitest';
import { runDebug, type ServiceCall } from './debug.js';

/** A dock that answers each service with the code given for it (0 when none), recording the calls. */
function dock(codes: Record<string, number | null> = {}) {
  const calls: string[] = [];
  const call: ServiceCall = (method) => {
    calls.push(method);
    const code = method in codes ? codes[method] : 0;
    return Promise.resolve(code === null || code === undefined ? null : { result: code, attempts: 1, output: { status: 'ok' } });
  };
  return { calls, call };
}

describe('remote debug of a DJI dock', () => {
  it('runs the action inside debug mode and closes it after', async () => {
    const d = dock();
    const r = await runDebug({ op_id: 'op1', action: 'cover_open' }, d.call);
    expect(r).toEqual({ status: 'ok', attempts: 1, output: { status: 'ok' } });
    expect(d.calls).toEqual([DjiMethod.DEBUG_MODE_OPEN, DjiMethod.COVER_OPEN, DjiMethod.DEBUG_MODE_CLOSE]);
  });

  it('answers the refusal of the action with its DJI code and still closes debug mode', async () => {
    const d = dock({ [DjiMethod.COVER_OPEN]: 514134 });
    const r = await runDebug({ op_id: 'op1', action: 'cover_open' }, d.call);
    expect(r).toMatchObject({ status: 'failed', code: 514134 });
    expect(d.calls).toEqual([DjiMethod.DEBUG_MODE_OPEN, DjiMethod.COVER_OPEN, DjiMethod.DEBUG_MODE_CLOSE]);
  });

  it('does not send the action when debug mode is refused', async () => {
    const d = dock({ [DjiMethod.DEBUG_MODE_OPEN]: 514148 });
    const r = await runDebug({ op_id: 'op1', action: 'charge_on' }, d.call);
    expect(r).toMatchObject({ status: 'failed', code: 514148 });
    expect(d.calls).toEqual([DjiMethod.DEBUG_MODE_OPEN]);
  });

  it('closes no debug mode after an accepted reboot, which leaves it by itself', async () => {
    const d = dock();
    expect((await runDebug({ op_id: 'op1', action: 'reboot' }, d.call)).status).toBe('ok');
    expect(d.calls).toEqual([DjiMethod.DEBUG_MODE_OPEN, DjiMethod.DEVICE_REBOOT]);
  });

  it('times out when the action gets no answer, closing debug mode', async () => {
    const d = dock({ [DjiMethod.DRONE_OPEN]: null });
    expect(await runDebug({ op_id: 'op1', action: 'drone_on' }, d.call)).toEqual({ status: 'timeout' });
    expect(d.calls.at(-1)).toBe(DjiMethod.DEBUG_MODE_CLOSE);
  });

  it('refuses an unknown action without calling the dock', async () => {
    const d = dock();
    expect(await runDebug({ op_id: 'op1', action: 'self_destruct' }, d.call)).toMatchObject({ status: 'failed', code: DjiResult.BAD_PARAMETER });
    expect(d.calls).toEqual([]);
  });
});
