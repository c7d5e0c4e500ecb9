/**
 * Whether anyone is at the live tables in this process (issue 12: an idle server costs under 1 %
 * of a core). The tables' rounds cost a few transactions a second whether or not anyone plays;
 * with nobody at any table for `idleAfterMs` the scheduler finishes the rounds under way (their
 * bets are settled as always) and opens no new ones until someone comes back.
 *
 * Someone is at the tables while an event stream of a table is open in this process, and for
 * `idleAfterMs` after a call that reads or bets at a table. 0 keeps the tables always running.
 */
export interface LiveInterest {
  /** A call that reads or bets at a table. */
  touch(): void;
  /** An event stream that is open until the returned release is called. */
  hold(): () => void;
  isActive(): boolean;
  /** `listener` runs when interest comes back after a quiet spell (a sleeping scheduler wakes); returns the unsubscribe. */
  onReturn(listener: () => void): () => void;
}

export function createLiveInterest(idleAfterMs: number, clock: () => number = Date.now): LiveInterest {
  let streams = 0;
  let lastTouch = Number.NEGATIVE_INFINITY;
  const listeners = new Set<() => void>();

  const isActive = () => idleAfterMs <= 0 || streams > 0 || clock() - lastTouch < idleAfterMs;

  function noteInterest(change: () => void): void {
    const wasActive = isActive();
    change();
    if (!wasActive) for (const listener of listeners) listener();
  }

  return {
    touch: () => noteInterest(() => (lastTouch = clock())),
    hold() {
      noteInterest(() => streams++);
      let isReleased = false;
      return () => {
        if (isReleased) return;
        isReleased = true;
        streams--;
        // A stream that closes counts as a last look: the tables keep going a while after it.
        lastTouch = clock();
      };
    },
    isActive,
    onReturn(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
