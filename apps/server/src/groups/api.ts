// What other features use of groups: the devices shared with a user through collaboration groups.
export { sharesOf } from './shares.js';
