import type { CommandReplyPush, ControlCommandData, PreflightCheck, ProcessControlData } from '@nest/contracts';

/** Who issues a command: a console user (push 401/473), a timed task or the demo launcher. */
export interface Actor {
  u_id: string;
  nick: string;
  company_id: string;
  /** super_administrator: every company's devices. */
  all: boolean;
  source: 'console' | 'task' | 'demo';
  /**
   * A console user's functions as last read: flying needs DEVICE_CONTROL_FUNCTION (system actors need
   * none: a timed task was set up by someone allowed to).
   */
  funList?: readonly string[];
  /** Devices shared with a console user through collaboration groups: watched, never controlled. */
  shared?: ReadonlySet<string>;
}

/** A command's answer: the push reply code (2000 or 2002), its localisable text and the reply data. */
export interface CommandAnswer {
  code: number;
  /** Text in the actor's language (empty on success). */
  msg: string;
  data: CommandReplyPush;
  /** Nothing to reply (an accepted virtual-stick frame: frames are answered only when refused). */
  silent?: boolean;
}

/** Flight operations of the server (flight/): commands, process control, pre-flight checks, missions. */
export interface FlightRuntime {
  /** A control command (push 401 data). Never throws; refusals are answers. */
  control(actor: Actor, data: ControlCommandData, lang: 'zh' | 'en'): Promise<CommandAnswer>;
  /** Pause / continue / interrupt the running process (push 473 data). */
  process(actor: Actor, data: ProcessControlData, lang: 'zh' | 'en'): Promise<CommandAnswer>;
  /** Fly a saved route now (one-key takeoff with the route on a nest; route start on a drone). */
  launchMission(actor: Actor, opts: { sn: string; missionId: string; resume?: boolean; cmdId?: string }, lang: 'zh' | 'en'): Promise<CommandAnswer>;
  /** The pre-flight checks of a device (and route) now; values that name something (a zone) in `lang`. */
  checks(actor: Actor, sn: string, missionId?: string, lang?: 'zh' | 'en'): Promise<{ ready: boolean; checks: PreflightCheck[] }>;
  stop(): Promise<void>;
}
