import { DjiMethod, DjiResult } from '@nest/contracts';
import { describe, expect, it } from 'vitest';
import { debugProgressOf, runDebug, type ServiceCall } from './debug.js';

/** A dock that answers each service with the code given for it (0 when none), recording the calls. */
function dock(codes: Record<string, number | null> = {}) {
  const calls: string[] = [];
  const bids: (string | undefined)[] = [];
  const call: ServiceCall = (method, _data, bid) => {
    calls.push(method);
    bids.push(bid);
    const code = method in codes ? codes[method] : 0;
    return Promise.resolve(code === null || code === undefined ? null : { result: code, attempts: 1, output: { status: 'ok' } });
  };
  return { calls, bids, call };
}

describe('remote debug of a DJI dock', () => {
  it('runs the action inside debug mode and closes it after', async () => {
    const d = dock();
    const r = await runDebug({ op_id: 'op1', action: 'cover_open' }, d.call);
    // The action's progress follows by events of its bid, the operation id.
    expect(r).toEqual({ status: 'ok', attempts: 1, output: { status: 'ok', progress: true } });
    expect(d.calls).toEqual([DjiMethod.DEBUG_MODE_OPEN, DjiMethod.COVER_OPEN, DjiMethod.DEBUG_MODE_CLOSE]);
    expect(d.bids).toEqual([undefined, 'op1', undefined]);
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
    expect(await runDebug({ op_id: 'op1', action: 'reboot' }, d.call)).toMatchObject({ status: 'ok', output: { progress: false } });
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

describe('progress events of a remote-debug action', () => {
  const event = (status: string, percent: number, result = 0) => ({ result, output: { status, progress: { percent, step_key: 'open_cover' } } });

  it('reads in_progress as running, ok as the end at 100 %', () => {
    expect(debugProgressOf(DjiMethod.COVER_OPEN, 'op1', event('in_progress', 33.4))).toEqual({ op_id: 'op1', kind: 'debug', state: 'running', progress: 33, message: 'open_cover' });
    expect(debugProgressOf(DjiMethod.CHARGE_CLOSE, 'op2', event('ok', 100))).toEqual({ op_id: 'op2', kind: 'debug', state: 'ok', progress: 100, stage: 'done' });
    // Running never reads 100 % before the end.
    expect(debugProgressOf(DjiMethod.DRONE_OPEN, 'op3', event('in_progress', 100))).toMatchObject({ state: 'running', progress: 99 });
  });

  it('ends failed with the DJI result code, also on ok with a non-zero result', () => {
    expect(debugProgressOf(DjiMethod.COVER_OPEN, 'op1', event('failed', 50, 514107))).toMatchObject({ state: 'failed', failure: 514107, progress: 50 });
    expect(debugProgressOf(DjiMethod.COVER_CLOSE, 'op1', event('ok', 100, 514108))).toMatchObject({ state: 'failed', failure: 514108 });
    expect(debugProgressOf(DjiMethod.COVER_CLOSE, 'op1', event('canceled', 10))).toMatchObject({ state: 'failed', progress: 10 });
  });

  it('is null for other methods, the reboot, a bad bid or data that is not an event', () => {
    expect(debugProgressOf(DjiMethod.HMS, 'op1', event('ok', 100))).toBeNull();
    expect(debugProgressOf(DjiMethod.DEVICE_REBOOT, 'op1', event('ok', 100))).toBeNull();
    expect(debugProgressOf(DjiMethod.COVER_OPEN, '', event('ok', 100))).toBeNull();
    expect(debugProgressOf(DjiMethod.COVER_OPEN, 'op1', 'nonsense')).toBeNull();
  });
});
