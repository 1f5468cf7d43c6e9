import { describe, expect, it } from 'vitest';
import { CODE_TEXT, PROCESS_CONTROL_FAILED_TEXT, PushMsgId, ResultCode } from '@nest/contracts';
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

  it("a refusal shows the server's msg; without one, 401 navigation by its reason and 473 by its process command", () => {
    const t = new CommandTracker(ids);
    const nav = t.begin('route', PushMsgId.CONTROL);
    t.receive(PushMsgId.CONTROL, ResultCode.PUSH_FAILED, reply(nav.cmdId, { outcome: 'refused', cmd_type: 8, reason: 21 }), '请先获取该设备的控制权', 'zh');
    expect(t.get('route')?.text).toBe('请先获取该设备的控制权');
    t.receive(PushMsgId.CONTROL, ResultCode.PUSH_FAILED, reply(t.begin('route').cmdId, { outcome: 'refused', cmd_type: 8, reason: 18 }), '', 'en');
    expect(t.get('route')?.text).toBe('The route has no breakpoint to resume from');
    t.receive(PushMsgId.CONTROL, ResultCode.PUSH_FAILED, reply(t.begin('route').cmdId, { outcome: 'refused', cmd_type: 8, reason: 10 }), '', 'zh');
    expect(t.get('route')?.text).toBe('航线不在围栏内或无效');
    const p = t.begin('process-3', PushMsgId.PROCESS_CONTROL);
    t.receive(PushMsgId.PROCESS_CONTROL, ResultCode.PUSH_FAILED, reply(p.cmdId, { outcome: 'rejected', control_cmd: 3, refusal: 5 }), '', 'en');
    expect(t.get('process-3')?.text).toBe('Process termination failed');
    const q = t.begin('process-1', PushMsgId.PROCESS_CONTROL);
    t.receive(PushMsgId.PROCESS_CONTROL, ResultCode.PUSH_FAILED, reply(q.cmdId, { outcome: 'refused', control_cmd: 1, reason: 23 }), '协同组共享的设备只能查看，不能控制', 'zh');
    expect(t.get('process-1')?.text).toBe(`${PROCESS_CONTROL_FAILED_TEXT[1].zh}：协同组共享的设备只能查看，不能控制`);
  });

  it.each([ResultCode.NOT_FOUND_OBJECT, ResultCode.NO_PERMISSION, ResultCode.LOGIN_EXPIRED])(
    'a %i without reply data fails every command of that msg_id still sending, with the server text or the code text',
    (code) => {
      const t = new CommandTracker(ids);
      const land = t.begin('land', PushMsgId.CONTROL);
      const photo = t.begin('photo', PushMsgId.CONTROL);
      const pause = t.begin('process-1', PushMsgId.PROCESS_CONTROL);
      const done = t.begin('return', PushMsgId.CONTROL);
      t.receive(PushMsgId.CONTROL, ResultCode.OK, reply(done.cmdId, { outcome: 'pending' }), '', 'en');
      expect(t.receive(PushMsgId.CONTROL, code, null, '', 'en')).toMatchObject({ key: 'land', status: 'failed', text: CODE_TEXT[code]!.en });
      expect(t.get('photo')).toMatchObject({ status: 'failed', text: CODE_TEXT[code]!.en });
      // Another msg_id and a command already answered (pending) keep waiting.
      expect(t.get('process-1')?.status).toBe('sending');
      expect(t.get('return')?.status).toBe('pending');
      t.receive(PushMsgId.PROCESS_CONTROL, code, null, 'server words', 'zh');
      expect(t.get('process-1')).toMatchObject({ status: 'failed', text: 'server words' });
      // A real answer that still comes for one of them counts; a new send of the action gets a new id.
      t.receive(PushMsgId.CONTROL, ResultCode.OK, reply(photo.cmdId), '', 'en');
      expect(t.get('photo')?.status).toBe('ok');
      expect(t.begin('land', PushMsgId.CONTROL).cmdId).not.toBe(land.cmdId);
      expect(pause.cmdId).toBeTruthy();
    },
  );

  it('answers that are not refusals without data change nothing', () => {
    const t = new CommandTracker(ids);
    t.begin('land', PushMsgId.CONTROL);
    // A refused stick frame carries data but no cmd_id; a quiet 44020; a success without data.
    expect(t.receive(PushMsgId.CONTROL, ResultCode.PUSH_FAILED, { sn_id: 'N1', outcome: 'refused', reason: 21 }, 'x', 'en')).toBeNull();
    expect(t.receive(PushMsgId.CONTROL, ResultCode.OK_QUIET, null, '', 'en')).toBeNull();
    expect(t.receive(PushMsgId.CONTROL, ResultCode.OK, null, '', 'en')).toBeNull();
    expect(t.get('land')?.status).toBe('sending');
  });

  it('failWaiting ends every command still sending (the socket they were sent on closed)', () => {
    const t = new CommandTracker(ids);
    const seen: string[] = [];
    t.subscribe((s) => seen.push(`${s.key}:${s.status}`));
    t.begin('land', PushMsgId.CONTROL);
    t.begin('process-2', PushMsgId.PROCESS_CONTROL);
    expect(t.failWaiting(null, 'The connection has been closed').map((s) => s.key)).toEqual(['land', 'process-2']);
    expect(seen).toEqual(['land:sending', 'process-2:sending', 'land:failed', 'process-2:failed']);
    expect(t.failWaiting(null, 'again')).toEqual([]);
  });
});
