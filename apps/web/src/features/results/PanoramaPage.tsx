import type { ReactNode } from 'react';
import { ComingPage } from '../../app/pages/ComingPage';

/** Being built in issue 6 (replaced by the screen itself). */
export default function Page(): ReactNode {
  return <ComingPage title="panorama" />;
}
