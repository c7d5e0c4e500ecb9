/**
 * How many live-event streams a process keeps open (issue 11: 200 stalled streams took 100 MB):
 * a cap per client address and in total, each stream holding a slot until it closes.
 */
export interface LiveStreamLimits {
  /** Open streams one client address may hold (players behind one NAT share it). */
  perClient: number;
  /** Open streams of the whole process. */
  total: number;
  /** Bytes of events a stream may have waiting for a slow reader before it is dropped. */
  maxBufferBytes: number;
}

export const DEFAULT_LIVE_STREAM_LIMITS: LiveStreamLimits = { perClient: 16, total: 2000, maxBufferBytes: 64 * 1024 };

export type SlotRefusal = 'client' | 'total';

export function createStreamSlots(limits: Pick<LiveStreamLimits, 'perClient' | 'total'>) {
  const byClient = new Map<string, number>();
  let open = 0;
  return {
    /** Takes a slot for the client, or says which cap refuses it; the release frees it (once). */
    take(client: string): { release: () => void } | { refused: SlotRefusal } {
      const held = byClient.get(client) ?? 0;
      if (held >= limits.perClient) return { refused: 'client' };
      if (open >= limits.total) return { refused: 'total' };
      byClient.set(client, held + 1);
      open++;
      let isReleased = false;
      return {
        release() {
          if (isReleased) return;
          isReleased = true;
          open--;
          const left = (byClient.get(client) ?? 1) - 1;
          if (left > 0) byClient.set(client, left);
          else byClient.delete(client);
        },
      };
    },
    openCount: () => open,
  };
}
