import { codeText, commandReplyPush, ResultCode, type CommandReplyPush, type Lang } from '@nest/contracts';
import { pushFailureText } from '../../../shared/push/client';

/** What the console knows about one command it sent (401 or 473). */
export interface CommandState {
  key: string;
  cmdId: string;
  /** 401 CONTROL or 473 PROCESS_CONTROL (null: not said by the caller). */
  msgId: number | null;
  status: 'sending' | 'pending' | 'ok' | 'failed';
  reply?: CommandReplyPush;
  /** Text shown for a failure. */
  text?: string;
}

const isSuccess = (code: number | undefined): boolean => code === undefined || code === ResultCode.OK || code === ResultCode.OK_CREATED;

type Listener = (s: CommandState) => void;

/**
 * Correlates replies with sent commands by cmd_id. The same action (key) re-sent while its earlier send is
 * unanswered keeps its cmd_id, so the server executes it once; once answered, the next send gets a new id.
 */
export class CommandTracker {
  private readonly byKey = new Map<string, CommandState>();
  private readonly byId = new Map<string, CommandState>();
  private readonly listeners = new Set<Listener>();

  constructor(private readonly newId: () => string = () => crypto.randomUUID()) {}

  /** The cmd_id to send for an action: the open one of the same key, else a new one. */
  begin(key: string, msgId: number | null = null): CommandState {
    const open = this.byKey.get(key);
    if (open && (open.status === 'sending' || open.status === 'pending')) return open;
    if (open) this.byId.delete(open.cmdId);
    const s: CommandState = { key, cmdId: this.newId(), msgId, status: 'sending' };
    this.byKey.set(key, s);
    this.byId.set(s.cmdId, s);
    this.emit(s);
    return s;
  }

  /**
   * A reply (success or failure) arrived; answers the updated command or null when it is not ours.
   *
   * A refusal without reply data (40018 the device is not the user's, 40100 no permission, 40263 the
   * socket's session is not live, 50000) names no cmd_id: it is why every command of that msg_id still
   * waiting for its answer will get none, so each of them fails with the server's text (the first is
   * answered). A later real answer of one of them still counts.
   */
  receive(msgId: number, code: number | undefined, data: unknown, msg: string | undefined, lang: Lang): CommandState | null {
    const parsed = commandReplyPush.safeParse(data);
    const cmdId = parsed.success ? parsed.data.cmd_id : (data as { cmd_id?: unknown } | null)?.cmd_id;
    const ok = isSuccess(code);
    if (typeof cmdId !== 'string') {
      if (ok || code === ResultCode.OK_QUIET || (data !== null && data !== undefined)) return null;
      return this.failWaiting(msgId, msg || codeText(code ?? ResultCode.SERVER_ERROR, lang))[0] ?? null;
    }
    const s = this.byId.get(cmdId);
    if (!s) return null;
    const next: CommandState = {
      ...s,
      ...(parsed.success ? { reply: parsed.data } : {}),
      status: ok ? (parsed.success && parsed.data.outcome === 'pending' ? 'pending' : 'ok') : 'failed',
      ...(ok ? {} : { text: pushFailureText(msgId, data, msg ?? '', lang) }),
    };
    this.byKey.set(s.key, next);
    this.byId.set(cmdId, next);
    this.emit(next);
    return next;
  }

  /**
   * Every command still waiting for its answer (of one msg_id, or all) fails with `text`: the answer
   * cannot come (refused without data, or the socket it was sent on closed). Answers the failed ones.
   */
  failWaiting(msgId: number | null, text: string): CommandState[] {
    const failed: CommandState[] = [];
    for (const s of [...this.byKey.values()]) {
      if (s.status !== 'sending' || (msgId !== null && s.msgId !== null && s.msgId !== msgId)) continue;
      const next: CommandState = { ...s, status: 'failed', text };
      this.byKey.set(s.key, next);
      this.byId.set(s.cmdId, next);
      failed.push(next);
    }
    failed.forEach((s) => this.emit(s));
    return failed;
  }

  /** The send itself failed (connection closed): the command is over, next send gets a new id. */
  fail(cmdId: string, text: string): void {
    const s = this.byId.get(cmdId);
    if (!s) return;
    const next: CommandState = { ...s, status: 'failed', text };
    this.byKey.set(s.key, next);
    this.byId.set(cmdId, next);
    this.emit(next);
  }

  get(key: string): CommandState | undefined {
    return this.byKey.get(key);
  }

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  private emit(s: CommandState): void {
    this.listeners.forEach((l) => l(s));
  }
}
