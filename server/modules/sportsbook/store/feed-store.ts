/**
 * The feed consumer's store (issue 14: "messages are applied idempotently and in order per
 * event"). Messages are queued per event and applied in batches, one transaction per batch (feed
 * throughput: a feed sends a hundred odds changes a second): lock the event's cursor, let the
 * sequencer decide for each message in arrival order (apply with the held successors it releases,
 * hold until the gap fills, or drop a stale message or a duplicate), run the reducer over the
 * released messages on the markets they name only, write the markets and selections that changed,
 * and hand the reducer's effects to the ticket side in the same transaction. Producer liveness is
 * kept in memory: a producer that goes silent has its markets suspended, its recovery lifts that.
 */
import { and, eq, notInArray } from 'drizzle-orm';
import { marketKey } from '#common/sportsbook/catalogue';
import type { Database } from '../../../db/client';
import { inTransaction, type Executor } from '../../../db/retry';
import { checkLiveness, NO_PRODUCERS, recordAlive, type LivenessState, type LivenessTransition } from '../feed/liveness';
import { parseFeedMessage, type EventFeedMessage, type FeedMessage } from '../feed/messages';
import { applyToEvent, producerDown, type EventState, type MarketEffect } from '../feed/market-state';
import { sequence, skipGap, type SequencerState } from '../feed/sequencer';
import type { Fixture } from '../feed/fixtures';
import {
  sportsbookCategories,
  sportsbookEvents,
  sportsbookFeedCursors,
  sportsbookFeedMessages,
  sportsbookTournaments,
} from '../tables';
import { liftOutage, loadEventState, suspendForOutage, writeEventState, type MarketScope } from './event-rows';

/** The ticket side's hook: settles, voids or reopens tickets in the message's own transaction. */
export type EffectsHandler = (tx: Executor, eventId: string, effects: readonly MarketEffect[]) => Promise<void>;

/** Told after a commit which event's markets changed (the price stream to open pages). */
export type ChangeListener = (eventId: string) => void;

export interface FeedStoreDeps {
  db: Database;
  onEffects?: EffectsHandler;
  now?: () => number;
  /** A producer silent for longer than this is down (default 20 s: a few missed heartbeats). */
  livenessTimeoutMs?: number;
  /** Told after each committed batch of an event's messages (tests and the bench count them). */
  onBatch?: BatchListener;
}

export type ApplyOutcome = 'applied' | 'held' | 'duplicate' | 'alive';

/** What one batch's transaction read and wrote (feed throughput: only the markets its messages name). */
export interface BatchCounts {
  marketsLoaded: number;
  outcomesWritten: number;
}

export type BatchListener = (batch: { eventId: string; messages: number } & BatchCounts) => void;

/** The most messages of one event applied in one transaction. */
const MAX_BATCH = 500;

export interface ApplyResult {
  outcome: ApplyOutcome;
  effects: MarketEffect[];
  /** A heartbeat's news: a producer down (unsubscribed) or back. */
  transitions?: LivenessTransition[];
}

/** An event message waiting for its batch, and how its caller is answered. */
interface Pending {
  message: EventFeedMessage;
  done: (result: ApplyResult | Error) => void;
}

const DEFAULT_LIVENESS_TIMEOUT_MS = 20_000;
/** Events over for good: a silent producer has nothing there to suspend. */
const FINISHED = ['closed', 'cancelled', 'abandoned'] as const;

async function lockCursor(tx: Executor, producer: string, eventId: string): Promise<number> {
  await tx.insert(sportsbookEvents).values({ id: eventId }).onConflictDoNothing();
  await tx.insert(sportsbookFeedCursors).values({ producer, eventId }).onConflictDoNothing();
  const [cursor] = await tx
    .select({ next: sportsbookFeedCursors.nextSequence })
    .from(sportsbookFeedCursors)
    .where(and(eq(sportsbookFeedCursors.producer, producer), eq(sportsbookFeedCursors.eventId, eventId)))
    .for('update');
  return cursor!.next;
}

/** The event's queue as the sequencer sees it: the next sequence and the messages held for a gap. */
async function queueOf(tx: Executor, producer: string, eventId: string, next: number): Promise<SequencerState> {
  const held = await tx
    .select({ sequence: sportsbookFeedMessages.sequence, payload: sportsbookFeedMessages.payload })
    .from(sportsbookFeedMessages)
    .where(
      and(
        eq(sportsbookFeedMessages.producer, producer),
        eq(sportsbookFeedMessages.eventId, eventId),
        eq(sportsbookFeedMessages.applied, false),
      ),
    );
  const messages = new Map(held.map((row) => [row.sequence, parseFeedMessage(row.payload) as EventFeedMessage]));
  return new Map([[eventId, { next, held: messages }]]);
}

/** The markets a batch's messages read: named ones, those of a bet stop's types, or all for a bet stop of every market. */
function marketsNamed(messages: readonly EventFeedMessage[]): MarketScope {
  const keys = new Set<string>();
  const types = new Set<string>();
  for (const message of messages) {
    if (message.type === 'bet_stop') {
      if (!message.market_types) return { all: true };
      for (const type of message.market_types) types.add(type);
    } else if (message.type !== 'fixture_change')
      for (const market of message.markets) keys.add(marketKey(market.type, market.specifiers));
  }
  return { all: false, keys: [...keys], types: [...types] };
}

/** Records the messages of a batch, applied or held for a gap, in one statement. */
async function recordMessages(
  tx: Executor,
  producer: string,
  eventId: string,
  messages: readonly EventFeedMessage[],
  applied: boolean,
): Promise<void> {
  if (messages.length === 0) return;
  await tx
    .insert(sportsbookFeedMessages)
    .values(
      messages.map((message) => ({
        producer,
        eventId,
        sequence: message.sequence,
        type: message.type,
        payload: message,
        applied,
      })),
    )
    .onConflictDoUpdate({
      target: [sportsbookFeedMessages.producer, sportsbookFeedMessages.eventId, sportsbookFeedMessages.sequence],
      set: { applied },
    });
}

function nextOf(state: SequencerState, eventId: string): number {
  return state.get(eventId)!.next;
}

async function loadEvent(tx: Executor, eventId: string) {
  const [event] = await tx.select().from(sportsbookEvents).where(eq(sportsbookEvents.id, eventId));
  return event!;
}

export function createFeedStore(deps: FeedStoreDeps) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const timeoutMs = deps.livenessTimeoutMs ?? DEFAULT_LIVENESS_TIMEOUT_MS;
  const listeners = new Set<ChangeListener>();
  let liveness: LivenessState = NO_PRODUCERS;

  const notify = (eventId: string) => {
    for (const listener of listeners) listener(eventId);
  };

  /**
   * Applies released messages in order and records them; the cursor is locked by the caller. Only
   * the markets the messages name are loaded (feed throughput: an odds change must not read the
   * whole event), and only the rows that changed are written. Returns the effects per message.
   */
  async function applyReleased(
    tx: Executor,
    producer: string,
    eventId: string,
    messages: readonly EventFeedMessage[],
    next: number,
  ): Promise<{ perMessage: MarketEffect[][]; stats: BatchCounts }> {
    const event = await loadEvent(tx, eventId);
    const before = await loadEventState(tx, event, marketsNamed(messages));
    let state: EventState = before;
    const perMessage: MarketEffect[][] = [];
    for (const message of messages) {
      const step = applyToEvent(state, message);
      state = step.state;
      perMessage.push(step.effects);
    }
    await recordMessages(tx, producer, eventId, messages, true);
    const written = await writeEventState(tx, event, before, state, producer);
    await tx
      .update(sportsbookFeedCursors)
      .set({ nextSequence: next })
      .where(and(eq(sportsbookFeedCursors.producer, producer), eq(sportsbookFeedCursors.eventId, eventId)));
    const effects = perMessage.flat();
    if (effects.length > 0 && deps.onEffects) await deps.onEffects(tx, eventId, effects);
    return { perMessage, stats: { marketsLoaded: Object.keys(before.markets).length, outcomesWritten: written.outcomes } };
  }

  /**
   * One transaction for a batch of one event's messages: each goes through the sequencer in
   * arrival order (applied with what it releases, held for a gap, or dropped as stale or a
   * duplicate), and everything released is applied and written once.
   */
  async function applyBatch(
    producer: string,
    eventId: string,
    batch: readonly EventFeedMessage[],
  ): Promise<{ results: ApplyResult[]; stats: BatchCounts }> {
    return inTransaction(db, async (tx) => {
      let queue = await queueOf(tx, producer, eventId, await lockCursor(tx, producer, eventId));
      const released: EventFeedMessage[] = [];
      const releasedBy: number[] = [];
      const outcomes: ApplyOutcome[] = [];
      for (const [index, message] of batch.entries()) {
        const { state, decision } = sequence(queue, message);
        queue = state;
        outcomes.push(decision.action === 'apply' ? 'applied' : decision.action === 'hold' ? 'held' : 'duplicate');
        if (decision.action !== 'apply') continue;
        for (const item of decision.messages) {
          if (item.type === 'alive') continue;
          released.push(item);
          releasedBy.push(index);
        }
      }
      const stillHeld = [...queue.get(eventId)!.held.values()].filter((message) => batch.includes(message));
      await recordMessages(tx, producer, eventId, stillHeld, false);
      const applied =
        released.length > 0
          ? await applyReleased(tx, producer, eventId, released, nextOf(queue, eventId))
          : { perMessage: [], stats: { marketsLoaded: 0, outcomesWritten: 0 } };
      const effects = batch.map((): MarketEffect[] => []);
      applied.perMessage.forEach((list, i) => effects[releasedBy[i]!]!.push(...list));
      return { results: outcomes.map((outcome, i) => ({ outcome, effects: effects[i]! })), stats: applied.stats };
    });
  }

  /** Messages waiting to be applied, per producer and event; an event is here while its batches run. */
  const pending = new Map<string, Pending[]>();

  async function drain(key: string, producer: string, eventId: string): Promise<void> {
    for (let waiting = pending.get(key); waiting && waiting.length > 0; waiting = pending.get(key)) {
      const batch = waiting.splice(0, MAX_BATCH);
      try {
        await commitBatch(producer, eventId, batch);
      } catch (error) {
        // One bad message must not cost the others theirs: the batch again, a message at a time.
        if (batch.length === 1) batch[0]!.done(error instanceof Error ? error : new Error(String(error)));
        else for (const item of batch) await commitBatch(producer, eventId, [item]).catch((e: unknown) => item.done(e as Error));
      }
    }
    pending.delete(key);
  }

  async function commitBatch(producer: string, eventId: string, batch: readonly Pending[]): Promise<void> {
    const { results, stats } = await applyBatch(
      producer,
      eventId,
      batch.map((item) => item.message),
    );
    deps.onBatch?.({ eventId, messages: batch.length, ...stats });
    // A duplicate here may be a message another site process applied first (every process reads
    // the feed): its change is committed, and this process's open pages must see it too.
    if (results.some((result) => result.outcome !== 'held')) notify(eventId);
    batch.forEach((item, i) => item.done(results[i]!));
  }

  /**
   * Queues an event message; the messages of an event that arrive while its previous batch runs
   * (or in the same tick) are applied together in the next one, so a fast feed costs one
   * transaction per batch, not per message.
   */
  function applyEventMessage(message: EventFeedMessage): Promise<ApplyResult> {
    const { producer, event_id: eventId } = message;
    const key = `${producer}\u0000${eventId}`;
    return new Promise<ApplyResult>((resolve, reject) => {
      const done = (result: ApplyResult | Error) => (result instanceof Error ? reject(result) : resolve(result));
      const waiting = pending.get(key);
      if (waiting) {
        waiting.push({ message, done });
        return;
      }
      pending.set(key, [{ message, done }]);
      queueMicrotask(() => void drain(key, producer, eventId));
    });
  }

  /** Suspends every open market of the producer's events, each event in its own transaction. */
  async function producerWentDown(producer: string): Promise<void> {
    const events = await db
      .select({ id: sportsbookEvents.id })
      .from(sportsbookEvents)
      .where(and(eq(sportsbookEvents.producer, producer), notInArray(sportsbookEvents.status, [...FINISHED])));
    for (const { id } of events) {
      await inTransaction(db, async (tx) => {
        await lockCursor(tx, producer, id);
        const before = await loadEventState(tx, await loadEvent(tx, id));
        await suspendForOutage(tx, id, before, producerDown(before));
      });
      notify(id);
    }
  }

  async function producerRecovered(producer: string): Promise<void> {
    const events = await db
      .select({ id: sportsbookEvents.id })
      .from(sportsbookEvents)
      .where(eq(sportsbookEvents.producer, producer));
    await inTransaction(db, (tx) =>
      liftOutage(
        tx,
        events.map((event) => event.id),
      ),
    );
    for (const { id } of events) notify(id);
  }

  async function act(transitions: readonly LivenessTransition[]): Promise<void> {
    for (const { producer, change } of transitions)
      await (change === 'down' ? producerWentDown(producer) : producerRecovered(producer));
  }

  return {
    /** Applies one parsed feed message (heartbeats included) once and in order. */
    async apply(message: FeedMessage): Promise<ApplyResult> {
      if (message.type !== 'alive') return applyEventMessage(message);
      const step = recordAlive(liveness, message.producer, message.timestamp, message.subscribed);
      liveness = step.state;
      await act(step.transitions);
      return { outcome: 'alive', effects: [], transitions: step.transitions };
    },

    /** Marks producers silent past the timeout as down and suspends their markets (run on a timer). */
    async checkLiveness(): Promise<LivenessTransition[]> {
      const step = checkLiveness(liveness, now(), timeoutMs);
      liveness = step.state;
      await act(step.transitions);
      return step.transitions;
    },

    /** Gives up on a gap that did not fill in time: applies the held messages after it. */
    async skipGap(producer: string, eventId: string): Promise<MarketEffect[]> {
      const effects = await inTransaction(db, async (tx) => {
        const queue = await queueOf(tx, producer, eventId, await lockCursor(tx, producer, eventId));
        const skipped = skipGap(queue, eventId);
        const messages = skipped.messages.filter((message) => message.type !== 'alive');
        if (messages.length === 0) return [];
        const { perMessage } = await applyReleased(tx, producer, eventId, messages, nextOf(skipped.state, eventId));
        return perMessage.flat();
      });
      notify(eventId);
      return effects;
    },

    /** The last sequence applied per event (of any producer): where a recovery resumes. */
    async lastApplied(): Promise<Record<string, number>> {
      const rows = await db.select().from(sportsbookFeedCursors);
      const last: Record<string, number> = {};
      for (const row of rows) last[row.eventId] = Math.max(last[row.eventId] ?? 0, row.nextSequence - 1);
      return last;
    },

    /** Stores who plays, where and when; the event's feed state is untouched. */
    async upsertFixture(fixture: Fixture): Promise<void> {
      await inTransaction(db, async (tx) => {
        const { category, tournament, sport } = fixture;
        await tx
          .insert(sportsbookCategories)
          .values({ id: category.id, sport, name: category.name })
          .onConflictDoUpdate({ target: sportsbookCategories.id, set: { name: category.name } });
        await tx
          .insert(sportsbookTournaments)
          .values({ id: tournament.id, categoryId: category.id, sport, name: tournament.name })
          .onConflictDoUpdate({ target: sportsbookTournaments.id, set: { name: tournament.name } });
        const [home, away] = fixture.competitors;
        const fields = {
          sport,
          tournamentId: tournament.id,
          homeId: home.id,
          homeName: home.name,
          awayId: away.id,
          awayName: away.name,
          startTime: new Date(fixture.start_time),
          updatedAt: new Date(),
        };
        await tx
          .insert(sportsbookEvents)
          .values({ id: fixture.event_id, ...fields })
          .onConflictDoUpdate({ target: sportsbookEvents.id, set: fields });
      });
      notify(fixture.event_id);
    },

    /** The event's markets as the reducer sees them (tests, the ticket side's price check). */
    async eventState(eventId: string): Promise<EventState | undefined> {
      const [event] = await db.select().from(sportsbookEvents).where(eq(sportsbookEvents.id, eventId));
      return event ? loadEventState(db, event) : undefined;
    },

    /** Listens for committed changes of an event's markets; returns the unsubscribe. */
    onChange(listener: ChangeListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type FeedStore = ReturnType<typeof createFeedStore>;
