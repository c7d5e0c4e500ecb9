/**
 * The feed simulator as its own process (issue 14: "a built-in feed simulator is the default
 * provider: it schedules realistic fixtures for the coming days, plays matches in real time …
 * A speed factor lets tests play a match in seconds"; the team's rule: separate parts talk real
 * HTTP). The process is started as the site starts it and spoken to over HTTP only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import {
  parseFeedMessage,
  parseFixture,
  readServerSentEvents,
  startSimulatorProcess,
  type FeedMessage,
  type SimulatorProcess,
} from '../modules/sportsbook';

const TOKEN = 'feed-test-token-0123456789';
const ENTRY = fileURLToPath(new URL('./main.ts', import.meta.url));

/** Reads the SSE stream until `enough` holds or the deadline passes. */
async function readStream(
  url: string,
  enough: (messages: FeedMessage[]) => boolean,
  deadlineMs = 100_000,
): Promise<FeedMessage[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), deadlineMs);
  const messages: FeedMessage[] = [];
  try {
    const response = await fetch(`${url}/feed/v1/stream`, {
      headers: { authorization: `Bearer ${TOKEN}` },
      signal: controller.signal,
    });
    await readServerSentEvents(response.body!, (data) => {
      messages.push(parseFeedMessage(JSON.parse(data)));
      if (enough(messages)) controller.abort();
    });
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
  }
  return messages;
}

/** Each event's message sequence numbers in the order the stream delivered them. */
function sequencesByEvent(messages: FeedMessage[]): Map<string, number[]> {
  const received = new Map<string, number[]>();
  for (const m of messages) if (m.type !== 'alive') received.set(m.event_id, [...(received.get(m.event_id) ?? []), m.sequence]);
  return received;
}

const hasDuplicates = (messages: FeedMessage[]) => {
  const keys = messages.flatMap((m) => (m.type === 'alive' ? [] : [`${m.event_id}#${m.sequence}`]));
  return new Set(keys).size < keys.length;
};

const isOutOfOrder = (messages: FeedMessage[]) =>
  [...sequencesByEvent(messages).values()].some((sequences) => sequences.some((s, i) => i > 0 && s < sequences[i - 1]!));

const hasHeartbeat = (messages: FeedMessage[]) => messages.some((message) => message.type === 'alive');

const hasLivePrices = (messages: FeedMessage[]) =>
  messages.some((m) => m.type === 'odds_change' && m.event_status?.status === 'live' && m.markets.length > 0);

const settledConfirmed = (messages: FeedMessage[]) =>
  messages.some((message) => message.type === 'bet_settlement' && message.certainty === 'confirmed');

describe('the feed simulator process', () => {
  let simulator: SimulatorProcess;

  beforeAll(async () => {
    simulator = await startSimulatorProcess({
      entry: ENTRY,
      execArgv: ['--import', 'tsx'],
      env: {
        FEED_TOKEN: TOKEN,
        FEED_SPEED: '900',
        FEED_SEED: 'process-test',
        FEED_ALIVE_MS: '200',
        FEED_DUPLICATE_RATE: '0.3',
        FEED_SWAP_RATE: '0.3',
        FEED_OUTAGE_RATE: '0',
        LOG_LEVEL: 'warn',
      },
    });
  });
  afterAll(() => simulator?.stop());

  it('issue 14 own protocol: the feed answers only with the shared token', async () => {
    for (const path of ['/feed/v1/fixtures', '/feed/v1/stream']) {
      expect((await fetch(`${simulator.url}${path}`)).status).toBe(401);
      expect(
        (await fetch(`${simulator.url}${path}`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status,
      ).toBe(401);
    }
    const bad = await fetch(`${simulator.url}/feed/v1/recovery`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"after": {"x": -1}}',
    });
    expect(bad.status).toBe(400);
  });

  it('issue 14 fixtures for the coming days, in several tournaments and sports', async () => {
    const response = await fetch(`${simulator.url}/feed/v1/fixtures`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const fixtures = ((await response.json()) as { fixtures: unknown[] }).fixtures.map(parseFixture);
    const days = new Set(fixtures.map((fixture) => new Date(fixture.start_time).toISOString().slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(3);
    expect(new Set(fixtures.map((fixture) => fixture.tournament.id)).size).toBeGreaterThan(1);
    expect(new Set(fixtures.map((fixture) => fixture.sport)).size).toBeGreaterThan(1);
    for (const fixture of fixtures) expect(fixture.competitors[0].id).not.toBe(fixture.competitors[1].id);
  });

  it('issue 14 plays a match in seconds: live prices, heartbeats, a settlement, with duplicates and reordering; recovery replays it in order', async () => {
    // Read until every phenomenon has shown (or the deadline): a match may settle moments after the
    // stream connects, before any message of it was duplicated or swapped or any live price of a
    // later match came, and at this speed all of that can arrive before the first heartbeat is due.
    const messages = await readStream(
      simulator.url,
      (read) => settledConfirmed(read) && hasDuplicates(read) && isOutOfOrder(read) && hasHeartbeat(read) && hasLivePrices(read),
    );
    expect(settledConfirmed(messages)).toBe(true);
    expect(hasHeartbeat(messages)).toBe(true);
    expect(hasLivePrices(messages)).toBe(true);
    expect(hasDuplicates(messages)).toBe(true);
    expect(isOutOfOrder(messages)).toBe(true);
    const received = sequencesByEvent(messages);
    const settled = messages.find((m) => m.type === 'bet_settlement' && m.certainty === 'confirmed')!;
    if (settled.type === 'alive') throw new Error('unreachable');

    const response = await fetch(`${simulator.url}/feed/v1/recovery`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ after: { [settled.event_id]: 0 } }),
    });
    const recovered = ((await response.json()) as { messages: unknown[] }).messages
      .map(parseFeedMessage)
      .filter((m) => m.type !== 'alive' && m.event_id === settled.event_id);
    expect(recovered.map((m) => (m.type === 'alive' ? 0 : m.sequence))).toEqual(recovered.map((_, i) => i + 1));
    expect(recovered.some((m) => m.type === 'bet_settlement' && m.certainty === 'confirmed')).toBe(true);

    // Betting stops before dangerous moments: the whole history of the events the stream showed has
    // bet stops (read through recovery, so it does not depend on when the stream connected).
    const eventIds = [...received.keys()];
    const history = await fetch(`${simulator.url}/feed/v1/recovery`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ after: Object.fromEntries(eventIds.map((id) => [id, 0])) }),
    });
    const all = ((await history.json()) as { messages: unknown[] }).messages.map(parseFeedMessage);
    expect(all.some((message) => message.type === 'bet_stop')).toBe(true);
  }, 120_000);
});
