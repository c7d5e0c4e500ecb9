/** The six 5×3 video slots as titles of the one slot engine. */
import { slotTitle } from './slot-engine';
import { SLOT_DEFINITIONS } from './slot-definitions';

export { SLOT_DEFINITIONS };
export const SLOT_TITLES = SLOT_DEFINITIONS.map(slotTitle);
