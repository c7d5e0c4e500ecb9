/** Facts about the site the app starts from (metadata.generalInfo). */
export { generalInfo, metadataMethods } from './methods';
