import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { videoHandlers } from './handlers.js';
import { registerMediaRoutes } from './routes.js';

import type { VideoOnDemand } from './live.js';

export { VideoOnDemand, WATCH_LIST_TOPIC, WATCH_NOTICE_TOPIC } from './live.js';
export { RtmpSlots, RTMP_APP } from './rtmp.js';
export { RtmpIngest } from './rtmp-ingest.js';

declare module '../deps.js' {
  interface LiveRuntime {
    /** Asks devices to start and stop their video as people watch (live.ts). */
    video: VideoOnDemand;
  }
}

/** Videos: video on demand (live.ts), recorded and live media routes and the video calls. */
export const videosModule: FeatureModule<AppDeps> = {
  name: 'videos',
  routes: (app, s) => registerMediaRoutes(app, s),
  calls: (s) => videoHandlers(s),
};
