// What other features use of videos: the signed media and live links, and the path media files are served under.
export { MEDIA_PREFIX, mediaLinks, type MediaLinks } from './links.js';
