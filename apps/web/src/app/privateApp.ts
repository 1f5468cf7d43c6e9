import { preloadable } from '../shared/lazy';

/** Everything behind sign-in (guard, shell, screens) is one lazy chunk plus one per screen. */
export const privateApp = preloadable(() => import('./PrivateApp'));
