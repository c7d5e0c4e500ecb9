/**
 * Where feed messages come from (issue 14): one interface for every provider. The built-in
 * simulator is the default; a real unified-odds-feed client implements the same calls.
 * Messages reach the handler already parsed (messages.ts); ordering and duplicates are the
 * sequencer's business, silence the liveness tracker's.
 */
import type { FeedMessage } from './messages';

export type FeedHandler = (message: FeedMessage) => void | Promise<void>;

export interface FeedAdapter {
  /** Starts delivery to the handler; one handler per adapter. */
  subscribe(handler: FeedHandler): void;
  /** Asks the provider again for what was missed (a gap that does not fill, a producer back from an outage). */
  recover?(): Promise<void>;
  /** Stops delivery and releases timers and connections; resolves when no handler call is running. */
  stop(): Promise<void>;
}
