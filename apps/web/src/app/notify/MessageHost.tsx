import { useEffect, type ReactNode } from 'react';
import message from 'antd/es/message';
import { registerMessages } from '../../shared/notify';
import { MESSAGE_PLACEMENT } from './placement';

// Static calls (outside the host's context) land in the same place.
message.config(MESSAGE_PLACEMENT);

/** Registers antd's context-bound message API (themed, localised) for non-React code. */
export default function MessageHost(): ReactNode {
  const [api, holder] = message.useMessage(MESSAGE_PLACEMENT);
  useEffect(() => {
    registerMessages({
      error: (text) => void api.error(text),
      warning: (text) => void api.warning(text),
      success: (text) => void api.success(text),
      info: (text) => void api.info(text),
    });
    return () => registerMessages(null);
  }, [api]);
  return holder;
}
