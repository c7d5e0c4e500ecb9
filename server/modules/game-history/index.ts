/** A player's game history: pages, filters and CSV exports run as jobs. */
export {
  createGameHistoryService,
  EXPORT_JOB,
  exportDownloadPath,
  type GameHistoryDeps,
  type GameHistoryService,
} from './service';
export { gameHistoryMethods } from './methods';
