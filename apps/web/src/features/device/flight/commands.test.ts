import { describe, expect, it } from 'vitest';
import { PushMsgId, ResultCode } from '@nest/contracts';
import { CommandTracker } from './commands';

let n = 0;
const ids = () => `cmd-0000-${++n}`;
const reply = (cmd_id: string, extra: Record<string, unknown> = {}) => ({ sn_id: 'N1', cmd_id, outcome: 'ok', reason: 0, ...extra });

describe('command replies correlated by cmd_id', () => {
  it('a re-send of the same unanswered action keeps its cmd_id; after the answer a new one', () => {
    const t = new CommandTracker(ids);
    const a = t.begin('land');
    expect(t.begin('land').cmdId).toBe(a.cmdId);
    expect(t.begin('return').cmdId).not.toBe(a.cmdId);
    t.receive(PushMsgId.CONTROL, ResultCode.OK, reply(a.cmdId, { cmd_type: 2 }), '', 'en');
    expect(t.get('land')?.status).toBe('ok');
    expect(t.begin('land').cmdId).not.toBe(a.cmdId);
  });

  it('replies of other commands (or other consoles) are ignored', () => {
    const t = new CommandTracker(ids);
    const a = t.begin('photo');
    expect(t.receive(PushMsgId.CONTROL, ResultCode.OK, reply('someone-elses-id'), '', 'en')).toBeNull();
    expect(t.get('photo')?.status).toBe('sending');
    expect(t.get('photo')?.cmdId).toBe(a.cmdId);
  });

  it('pending outcome keeps waiting; 2002 fails with the server msg', () => {
    const t = new CommandTracker(ids);
    const a = t.begin('takeoff');
    t.receive(PushMsgId.CONTROL, ResultCode.OK, reply(a.cmdId, { outcome: 'pending' }), '', 'en');
    expect(t.get('takeoff')?.status).toBe('pending');
    expect(t.begin('takeoff').cmdId).toBe(a.cmdId);
    t.receive(PushMsgId.CONTROL, ResultCode.PUSH_FAILED, reply(a.cmdId, { outcome: 'refused', reason: 4, cmd_type: 1 }), 'Battery low (server)', 'en');
    expect(t.get('takeoff')).toMatchObject({ status: 'failed', text: 'Battery low (server)' });
  });

  it('401 navigation (cmd_type 8) with a reason shows the CommandReason text; 473 the process-control text', () => {
    const t = new CommandTracker(ids);
    const nav = t.begin('route');
    t.receive(PushMsgId.CONTROL, ResultCode.PUSH_FAILED, reply(nav.cmdId, { outcome: 'refused', cmd_type: 8, reason: 18 }), 'whatever', 'en');
    expect(t.get('route')?.text).toBe('The route has no breakpoint to resume from');
    t.receive(PushMsgId.CONTROL, ResultCode.PUSH_FAILED, reply(t.begin('route').cmdId, { outcome: 'refused', cmd_type: 8, reason: 10 }), 'x', 'zh');
    expect(t.get('route')?.text).toBe('航线不在围栏内或无效');
    const p = t.begin('process-3');
    t.receive(PushMsgId.PROCESS_CONTROL, ResultCode.PUSH_FAILED, reply(p.cmdId, { outcome: 'rejected', control_cmd: 3, refusal: 5 }), 'x', 'en');
    expect(t.get('process-3')?.text).toBe('Process termination failed');
  });
});
