/**
 * The built-in feed provider (issue 14): plays the scheduled matches against a clock run
 * `speed` times faster than real time and hands each message to the stream's subscribers when its
 * minute comes, as unreliable feeds deliver: some twice, some out of order, and now and then a
 * producer outage during which nothing is delivered and no heartbeat goes out. What was due stays
 * in the log, where a consumer's recovery finds it. Heartbeats run on the wall clock: they say the
 * producer is there, whatever the speed of its matches.
 */
import { nextFloat, type Rng } from '#common/games/fair';
import type { FeedMessageInput } from '../feed/messages';
import type { Fixture } from '../feed/fixtures';
import { disorder, type Disorder } from './feed-messages';
import { matchAnnouncement, simulatedMatchFeed, type MatchFeedOptions, type TimedMessage } from './match-feed';
import { scheduleFixtures, type ScheduledMatch } from './schedule';
import { matchRng } from './script';

export interface FeedProviderOptions {
  seed: string;
  producer: string;
  /** How many times faster than real time matches play. */
  speed: number;
  /** Days of fixtures ahead. */
  days: number;
  marginBp: number;
  disorder: Disorder;
  correctionRate: number;
  rollbackRate: number;
  /** Chance, per heartbeat, that the producer goes down for `outageMs`. */
  outageRate: number;
  outageMs: number;
  now?: () => number;
}

type Listener = (message: FeedMessageInput) => void;

interface PlayedMatch extends ScheduledMatch {
  options: MatchFeedOptions;
  /** The announcement until the match comes near, then the whole match. */
  messages: TimedMessage[];
  complete: boolean;
  /** How many of its messages were due so far (the log recovery reads). */
  due: number;
}

/** A match is scripted in full this long (simulator time) before kick-off. */
const SCRIPT_BEFORE_MS = 10 * 60_000;

export function createFeedProvider(options: FeedProviderOptions) {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const simNow = () => startedAt + (now() - startedAt) * options.speed;
  const rng: Rng = matchRng(`${options.seed}:delivery`, startedAt);
  const listeners = new Set<Listener>();
  let downUntil = 0;
  /** A message kept back to go out after the next batch: out of order across ticks too. */
  let late: FeedMessageInput[] = [];

  // In real time the schedule is the wall clock's, the same after a restart; sped up, each run's
  // clock is its own, so its events are too.
  const prefix = options.speed === 1 ? options.seed : `${options.seed}-${startedAt.toString(36)}`;
  const matches: PlayedMatch[] = scheduleFixtures(options.seed, startedAt, options.days, prefix).map((match) => {
    const matchOptions: MatchFeedOptions = {
      producer: options.producer,
      eventId: match.fixture.event_id,
      sport: match.sport,
      goals: match.goals,
      marginBp: options.marginBp,
      kickOff: match.fixture.start_time,
      announceMinute: Math.floor((startedAt - match.fixture.start_time) / 60_000),
      correctionRate: options.correctionRate,
      rollbackRate: options.rollbackRate,
    };
    return { ...match, options: matchOptions, messages: matchAnnouncement(matchOptions), complete: false, due: 0 };
  });

  const isDown = () => now() < downUntil;

  function dueMessages(): FeedMessageInput[] {
    const at = simNow();
    const due: FeedMessageInput[] = [];
    for (const match of matches) {
      if (!match.complete && at >= match.fixture.start_time - SCRIPT_BEFORE_MS) {
        match.messages = simulatedMatchFeed(matchRng(options.seed, match.number), match.options);
        match.complete = true;
      }
      while (match.due < match.messages.length && at >= match.fixture.start_time + match.messages[match.due]!.minute * 60_000)
        due.push(match.messages[match.due++]!.message);
    }
    return due;
  }

  function deliver(messages: readonly FeedMessageInput[]): void {
    for (const message of messages) for (const listener of listeners) listener(message);
  }

  return {
    fixtures(): Fixture[] {
      return matches.map((match) => match.fixture);
    },

    /** Sends what came due since the last tick (nothing while the producer is down: it is lost until recovery). */
    tick(): void {
      const due = dueMessages();
      if (isDown()) return;
      const batch = disorder(rng, [...late, ...due], options.disorder);
      late = batch.length > 1 && nextFloat(rng) < options.disorder.swapRate ? batch.splice(batch.length - 1, 1) : [];
      deliver(batch);
    },

    /** A heartbeat; now and then the producer goes down instead, and stays silent for `outageMs`. */
    heartbeat(): void {
      if (isDown()) return;
      if (nextFloat(rng) < options.outageRate) {
        downUntil = now() + options.outageMs;
        late = [];
        return;
      }
      deliver([{ type: 'alive', producer: options.producer, timestamp: now(), subscribed: true }]);
    },

    /** Every message due so far after the given sequence of each event (0 or absent: from the first), in order. */
    recovery(after: Readonly<Record<string, number>>): FeedMessageInput[] {
      return matches.flatMap((match) =>
        match.messages
          .slice(0, match.due)
          .map((timed) => timed.message)
          .filter((message) => 'sequence' in message && message.sequence > (after[match.fixture.event_id] ?? 0)),
      );
    },

    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type FeedProvider = ReturnType<typeof createFeedProvider>;
