/** Site content and configuration per locale, loaded from content/ into the database. */
export {
  createContentService,
  CONFIG_SECTIONS,
  type ConfigSection,
  type ContentEntry,
  type ContentService,
  type ListQuery,
} from './service';
export { seedContent } from './seed';
