import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import EditWorkPage from './editor/EditWorkPage';
import NoFlyEditPage from './nofly/NoFlyEditPage';

/**
 * The /editWork screen: the no-fly zone editor for `mode=nofly`, else the route, fence and survey editor.
 * Each is keyed by its mode, so switching modes starts the editor afresh.
 */
export default function EditWorkScreen(): ReactNode {
  const [params] = useSearchParams();
  return params.get('mode') === 'nofly' ? <NoFlyEditPage key="nofly" /> : <EditWorkPage key="work" />;
}
