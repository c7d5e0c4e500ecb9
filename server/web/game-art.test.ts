/**
 * /platform/art/{sysname}.svg: generated game tile art, nothing fetched from outside (issue 5);
 * /platform/avatar/{sysname}.svg: loyalty character portraits drawn the same way (issue 3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GamesPage } from '#common/games-contract';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { startAggregatorRig, type AggregatorRig } from '../../test/aggregator';
import { testDatabaseKinds } from '../../test/databases';
import type { LoyaltyCharacterList } from '#common/loyalty-contract';
import { avatarArtSvg, gameArtSvg, tileArt } from './game-art';
import type { GameProviderView } from '#common/games-contract';
import { readdirSync } from 'node:fs';

describe('game art', () => {
  it('is deterministic: the same sysname gives the same picture, another sysname another one', () => {
    expect(gameArtSvg('dice-roll')).toBe(gameArtSvg('dice-roll'));
    expect(gameArtSvg('dice-roll')).not.toBe(gameArtSvg('mines-field'));
    expect(gameArtSvg('aurora-fortune')).toContain('>AF</text>');
  });

  it('refers to nothing outside itself: no external address, no script', () => {
    for (const svg of [gameArtSvg('lightning-wheel'), avatarArtSvg('fox')])
      expect(svg.replace('http://www.w3.org/2000/svg', '')).not.toMatch(/https?:|href|<script|<image/);
  });

  it('a character portrait is square, deterministic and shows the initial', () => {
    expect(avatarArtSvg('owl')).toBe(avatarArtSvg('owl'));
    expect(avatarArtSvg('owl')).not.toBe(avatarArtSvg('wolf'));
    expect(avatarArtSvg('owl')).toContain('viewBox="0 0 96 96"');
    expect(avatarArtSvg('owl')).toContain('>O</text>');
  });
});

describe.each(testDatabaseKinds())('/platform/art on %s', (kind) => {
  let t: TestApp;
  let rig: AggregatorRig | undefined;
  beforeAll(async () => {
    t = await createTestApp(kind);
    // The external studios' titles are in the catalogue while the game aggregator serves them (issue 15).
    rig = await startAggregatorRig(t);
  });
  afterAll(async () => {
    await rig?.close();
    await t?.close();
  });

  it('answers image/svg+xml, the same bytes every time, cacheable', async () => {
    const first = await t.request('/platform/art/dice-roll.svg');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(first.headers.get('cache-control')).toContain('max-age');
    const body = await first.text();
    expect(body).toMatch(/^<svg /);
    expect(await (await t.request('/platform/art/dice-roll.svg')).text()).toBe(body);
  });

  it('every image_url of the catalogue is served', async () => {
    const page = (
      await t.api('games.get', {
        params: { count: '300', fields: 'image_url,description' },
      })
    ).body.data as GamesPage;
    const addresses = new Set(
      page.items.flatMap((item) =>
        [item.image_url, item.description?.img_288_192].filter((address): address is string => !!address),
      ),
    );
    expect(addresses.size).toBeGreaterThan(page.items.length);
    for (const address of addresses) {
      const response = await t.request(address);
      expect(response.status, address).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    }
  });

  it('every loyalty character picture of the site is served (loyalty.getcharacters)', async () => {
    const list = (await t.api('loyalty.getcharacters')).body.data as LoyaltyCharacterList;
    expect(list.items.length).toBeGreaterThan(0);
    for (const character of list.items) {
      const response = await t.request(character.image);
      expect(response.status, character.image).toBe(200);
      expect(await response.text()).toBe(avatarArtSvg(character.sysname));
    }
  });

  it('every game and provider of the catalogue has its own drawn picture: no initials, no text, small, nothing outside (issue 15)', async () => {
    const games = (await t.api('games.get', { params: { count: '300', fields: 'image_url,description' } })).body
      .data as GamesPage;
    const providers = (await t.api('games.getProviders')).body.data as GameProviderView[];
    const addresses = [
      ...games.items.flatMap((item) => [item.image_url, item.description?.img_288_192]),
      ...providers.map((provider) => provider.image_url),
    ].filter((address): address is string => !!address);
    const bodies = new Set<string>();
    for (const address of addresses) {
      const name = /^\/platform\/art\/([a-z0-9-]+)\.svg\?v=([0-9a-f]{10})$/.exec(address);
      expect(name, address).not.toBeNull();
      const drawn = tileArt(name![1]!);
      expect(drawn.version, address).toBe(name![2]);
      // Not the generated stand-in: a scene of its own, without letters, a few KB at most.
      expect(drawn.svg).not.toBe(gameArtSvg(name![1]!));
      expect(drawn.svg).not.toMatch(/<text|<script|<image|href|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
      expect(drawn.svg).toMatch(/^<svg [^>]*viewBox="0 0 288 192"/);
      expect(Buffer.byteLength(drawn.svg)).toBeLessThan(4096);
      bodies.add(drawn.svg);
    }
    // A distinct picture per name.
    expect(bodies.size).toBe(new Set(addresses).size);
    expect(bodies.size).toBe(readdirSync(new URL('../modules/games/art', import.meta.url)).length);
  });

  it('the versioned address is cached for a year; the bare one for a day (a redrawn picture reaches browsers)', async () => {
    const [game] = ((await t.api('games.get', { params: { count: '1', fields: 'image_url' } })).body.data as GamesPage).items;
    const versioned = await t.request(game!.image_url!);
    expect(versioned.status).toBe(200);
    expect(versioned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const bare = await t.request(game!.image_url!.replace(/\?v=.*$/, ''));
    expect(bare.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(await bare.text()).toBe(await versioned.text());
  });

  it('a name outside [a-z0-9-] or without .svg is 404', async () => {
    for (const path of [
      '/platform/art/Dice.svg',
      '/platform/art/dice-roll.png',
      '/platform/art/%3Cscript%3E.svg',
      '/platform/art/-x.svg',
      '/platform/avatar/Fox.svg',
      '/platform/avatar/fox.png',
    ]) {
      expect((await t.request(path)).status, path).toBe(404);
    }
  });
});
