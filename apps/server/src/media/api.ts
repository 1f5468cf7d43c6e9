// What other features use of media: sorties deleted with their results and stored files.
export { deleteSorties } from './delete.js';
