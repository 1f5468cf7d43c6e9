import type { ConfigOptions as MessageConfig } from 'antd/es/message/interface';
import type { NotificationConfig } from 'antd/es/notification/interface';

/** Height of the shell's header (shell.css `.app-header`). */
export const HEADER_HEIGHT = 64;
const GAP = 8;

/**
 * Where the console's toasts go, for every screen (the message host and the shell's notices read these).
 * Short messages: centred just below the header, so they never cover its navigation, three at most.
 * Alarm notices (larger, with a button): bottom right, three at most, clear of the header and of the
 * screens' top-right toolbars (the route editor's Save, the list screens' actions).
 */
export const MESSAGE_PLACEMENT: Readonly<MessageConfig> = { top: HEADER_HEIGHT + GAP, maxCount: 3 };

export const NOTIFICATION_PLACEMENT: Readonly<NotificationConfig> = { placement: 'bottomRight', bottom: 24, maxCount: 3 };
