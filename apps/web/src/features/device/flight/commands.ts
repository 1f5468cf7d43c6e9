import { commandReplyPush, ResultCode, type CommandReplyPush, type Lang } from '@nest/contracts';
import { pushFailureText } from '../../../shared/push/client';

/** What the console knows about one command it sent (401 or 473). */
export interface CommandState {
  key: string;
  cmdId: string;
  status: 'sending' | 'pending' | 'ok' | 'failed';
  reply?: CommandReplyPush;
  /** Text shown for a failure. */
  text?: string;
}


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
  begin(key: string): CommandState {
    const open = this.byKey.get(key);
    if (open && (open.status === 'sending' || open.status === 'pending')) return open;
    if (open) this.byId.delete(open.cmdId);
    const s: CommandState = { key, cmdId: this.newId(), status: 'sending' };
    this.byKey.set(key, s);
    this.byId.set(s.cmdId, s);
    this.emit(s);
    return s;
  }

  /** A reply (success or failure) arrived; answers the updated command or null when it is not ours. */
  receive(msgId: number, code: number | undefined, data: unknown, msg: string | undefined, lang: Lang): CommandState | null {
    const parsed = commandReplyPush.safeParse(data);
    const cmdId = parsed.success ? parsed.data.cmd_id : (data as { cmd_id?: unknown } | null)?.cmd_id;
    if (typeof cmdId !== 'string') return null;
    const s = this.byId.get(cmdId);
    if (!s) return null;
    const ok = code === undefined || code === ResultCode.OK || code === ResultCode.OK_CREATED;
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
