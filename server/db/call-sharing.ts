/**
 * Group commit for requests that each cost a few statements (issue 12: ≥ 1,000 real-money rounds/s
 * on PGlite, where one round's three statements alone cost 1.3 ms of the embedded database's
 * time; ≥ 500 provider rounds/s on PostgreSQL). Items that arrive while earlier ones are being
 * written wait here; the next free lane takes everything waiting and plays it in one call whose
 * statements carry all of them (shared rounds and provider money: one database function call
 * each). A lone item on a quiet server goes at once. With `gatherMs`, a call also waits, for that
 * long at most, for the owners the last calls answered to come back (see the option); a lone
 * owner never waits for anyone.
 *
 * One owner's items never share a call, nor run in two calls at once: an item whose owner is in a
 * call in flight (or already in the call being taken) waits for the next, so each of an owner's
 * rounds sees the nonce the one before it left. The queue knows nothing of what an item is; the
 * caller's `play` answers each item, and each caller learns only its own answer.
 */

export interface CallSharingOptions {
  /** Calls in flight at once (each holds a connection while it runs). */
  lanes: number;
  /** Items per call at most. */
  maxItems: number;
  /**
   * How long a call may wait, at most, for the owners the last calls answered to send their next
   * item (0: never). Group commit's delay (PostgreSQL's commit_delay with commit_siblings): players
   * who play in a loop send again a moment after their answer, and without the wait they come back
   * while the next call runs and take the call after it, so the calls stay small for good.
   */
  gatherMs?: number;
}

export interface CallSharingHold {
  /** Items waiting in the queue. */
  waiting(): number;
  /** Lets calls start again (once; later calls do nothing). */
  release(): void;
}

interface Waiting<I, O> {
  item: I;
  owner: string;
  resolve: (answer: O) => void;
  reject: (error: unknown) => void;
}

export function createCallSharing<I, O>(
  play: (items: readonly I[]) => Promise<readonly O[]>,
  ownerOf: (item: I) => string,
  options: CallSharingOptions,
) {
  const queue: Waiting<I, O>[] = [];
  const busyOwners = new Set<string>();
  const stats = { calls: 0, rounds: 0 };
  let inFlight = 0;
  let holds = 0;
  const gatherMs = options.gatherMs ?? 0;
  /** Owners a call answered within the last gatherMs and not back yet, and when: the ones expected. */
  const answeredAt = new Map<string, number>();
  let gatherTimer: ReturnType<typeof setTimeout> | undefined;

  /** The waiting rounds, oldest first, one per owner and none of an owner a call in flight holds. */
  function takeCall(): Waiting<I, O>[] {
    const call: Waiting<I, O>[] = [];
    const owners = new Set<string>();
    for (let index = 0; index < queue.length && call.length < options.maxItems;) {
      const next = queue[index]!;
      if (busyOwners.has(next.owner) || owners.has(next.owner)) {
        index++;
        continue;
      }
      owners.add(next.owner);
      call.push(...queue.splice(index, 1));
    }
    return call;
  }

  async function run(call: Waiting<I, O>[]): Promise<void> {
    try {
      const answers = await play(call.map((waiting) => waiting.item));
      call.forEach((waiting, index) => waiting.resolve(answers[index]!));
    } catch (error) {
      for (const waiting of call) waiting.reject(error);
    }
  }

  let isPumpScheduled = false;

  /**
   * Takes calls after the event loop's next turn: the embedded database runs a statement without
   * giving the loop back, so a whole round would otherwise run before the requests already
   * waiting on their sockets are even read, and no call would ever carry more than one round.
   */
  function schedulePump(): void {
    if (isPumpScheduled) return;
    isPumpScheduled = true;
    setImmediate(() => {
      isPumpScheduled = false;
      pump();
    });
  }

  /**
   * When the next call should start to carry the owners still expected back, or undefined when
   * none is: an owner who does not come back costs the others one wait, and a lone owner never
   * waits for anyone (its own item took it off the list).
   */
  function gatherUntil(): number | undefined {
    if (gatherMs === 0 || queue.length >= options.maxItems) return undefined;
    forgetExpected(performance.now());
    let until: number | undefined;
    for (const at of answeredAt.values()) until = Math.max(until ?? 0, at + gatherMs);
    return until;
  }

  /** The call's owners are expected back, but for those whose next item already waits in the queue. */
  function expectBack(call: Waiting<I, O>[]): void {
    const now = performance.now();
    forgetExpected(now);
    const queued = new Set(queue.map((waiting) => waiting.owner));
    for (const waiting of call) {
      if (!queued.has(waiting.owner)) answeredAt.set(waiting.owner, now);
    }
  }

  /** Forgets the owners answered longer than gatherMs ago: they are no longer waited for. */
  function forgetExpected(now: number): void {
    for (const [owner, at] of answeredAt) {
      if (at + gatherMs <= now) answeredAt.delete(owner);
    }
  }

  function pump(): void {
    if (holds > 0) return;
    if (gatherTimer !== undefined) {
      clearTimeout(gatherTimer);
      gatherTimer = undefined;
    }
    const until = inFlight < options.lanes && queue.length > 0 ? gatherUntil() : undefined;
    if (until !== undefined) {
      // Each arrival pumps again and goes as soon as everyone expected is back.
      gatherTimer = setTimeout(pump, Math.max(0, until - performance.now()));
      return;
    }
    while (inFlight < options.lanes && queue.length > 0) {
      const call = takeCall();
      if (call.length === 0) return;
      inFlight++;
      stats.calls++;
      stats.rounds += call.length;
      for (const waiting of call) busyOwners.add(waiting.owner);
      void run(call).finally(() => {
        inFlight--;
        for (const waiting of call) busyOwners.delete(waiting.owner);
        if (gatherMs > 0) expectBack(call);
        schedulePump();
      });
    }
  }

  return {
    /** Plays a round in the next call that can take it; answers what `play` answered for it. */
    submit(item: I): Promise<O> {
      return new Promise<O>((resolve, reject) => {
        const owner = ownerOf(item);
        answeredAt.delete(owner);
        queue.push({ item, owner, resolve, reject });
        schedulePump();
      });
    },
    /** Calls made and the rounds they carried. */
    stats: () => ({ ...stats }),
    /**
     * Starts no call until the hold is released, and tells how many items wait meanwhile: tests
     * put requests side by side in one call with it, whatever the machine's speed (on a loaded
     * machine requests sent at once may reach the queue a call apart).
     */
    hold(): CallSharingHold {
      holds++;
      let isReleased = false;
      return {
        waiting: () => queue.length,
        release() {
          if (isReleased) return;
          isReleased = true;
          holds--;
          schedulePump();
        },
      };
    },
  };
}

export type CallSharing<I, O> = ReturnType<typeof createCallSharing<I, O>>;
