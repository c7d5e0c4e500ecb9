/**
 * Which external titles the lobby lists (issue 15, docs/game-aggregator.md; game-launch
 * service.ts): the aggregator's health answer over real HTTP. A late answer keeps the last good
 * list for the grace period (CI once lost every external title from the game hall for one answer
 * a loaded machine sent late); a refusal, an unhealthy answer or a new aggregator with no good
 * answer yet lists none.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_PROVIDER } from '../provider-wallet';
import { createGameLaunchService, type GameLaunchService } from './index';

type Mode = 'ok' | 'late' | 'unhealthy';
const TITLES = ['fox-fortune', 'viking-gold'];
const TTL_MS = 1_000;
const GRACE_MS = 3_000;

/** An aggregator's /healthz that answers as `mode` says; a late one never answers until it closes. */
async function aggregator() {
  const held: ServerResponse[] = [];
  const state = { mode: 'ok' as Mode };
  const server = createServer((_request: IncomingMessage, response: ServerResponse) => {
    if (state.mode === 'late') return void held.push(response);
    response.writeHead(state.mode === 'ok' ? 200 : 503, { 'content-type': 'application/json' });
    response.end(JSON.stringify(state.mode === 'ok' ? { status: 'ok', titles: TITLES } : { status: 'starting' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, state, close };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function launchServiceOn(url: string) {
  const clock = { now: 0 };
  // hostedTitles never opens a session: the wallet is not reached.
  const providerWallet = {} as Parameters<typeof createGameLaunchService>[0]['providerWallet'];
  const service: GameLaunchService = createGameLaunchService({
    providerWallet,
    healthTtlMs: TTL_MS,
    healthGraceMs: GRACE_MS,
    healthTimeoutMs: 100,
    now: () => clock.now,
  });
  service.connect({ url, provider: DEMO_PROVIDER });
  const listed = async () => [...(await service.hostedTitles())].sort();
  return { service, clock, listed };
}

describe('external titles listed from the aggregator’s health (issue 15)', () => {
  it('a late answer keeps the last good list through the grace period, then lists none', async () => {
    const rig = await aggregator();
    closers.push(rig.close);
    const { clock, listed } = await launchServiceOn(rig.url);
    expect(await listed()).toEqual(TITLES);

    rig.state.mode = 'late';
    clock.now = TTL_MS + 1;
    expect(await listed()).toEqual(TITLES);
    clock.now = GRACE_MS + 1;
    expect(await listed()).toEqual([]);

    rig.state.mode = 'ok';
    clock.now += TTL_MS;
    expect(await listed()).toEqual(TITLES);
  });

  it('an unhealthy answer or a refused connection lists none at once', async () => {
    const rig = await aggregator();
    closers.push(rig.close);
    const { clock, listed } = await launchServiceOn(rig.url);
    expect(await listed()).toEqual(TITLES);
    rig.state.mode = 'unhealthy';
    clock.now = TTL_MS + 1;
    expect(await listed()).toEqual([]);

    rig.state.mode = 'ok';
    clock.now += TTL_MS;
    expect(await listed()).toEqual(TITLES);
    await rig.close();
    clock.now += TTL_MS + 1;
    expect(await listed()).toEqual([]);
  });

  it('an aggregator connected anew has no good answer to fall back on: late lists none', async () => {
    const good = await aggregator();
    const late = await aggregator();
    closers.push(good.close, late.close);
    late.state.mode = 'late';
    const { service, listed } = await launchServiceOn(good.url);
    expect(await listed()).toEqual(TITLES);
    service.connect({ url: late.url, provider: DEMO_PROVIDER });
    expect(await listed()).toEqual([]);
  });
});
