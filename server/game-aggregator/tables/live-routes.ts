/**
 * The live tables' client calls, beside the round-based ones (`/play/{session}/…`):
 * - `GET  /play/{session}/live`: the table's round (phase, time left, outcome), the seat's bets,
 *   its return once settled, the number of seats and the balance;
 * - `POST /play/{session}/live/bets` with `{ "input": { "spot": "...", "stake": "..." } }`: one bet
 *   in the open round. After the close it is refused with 409 BETTING_CLOSED.
 */
import type { Context, Hono } from 'hono';
import { PlayError, type PlayErrorCode, type SessionStore } from '../sessions';
import { BettingClosedError, type LiveRooms } from './live-rooms';

const STATUS: Record<PlayErrorCode, 400 | 401 | 402 | 403 | 404 | 409 | 502 | 503> = {
  INVALID_INPUT: 400,
  SESSION_EXPIRED: 401,
  INSUFFICIENT_FUNDS: 402,
  PLAYER_BLOCKED: 403,
  ROUND_NOT_FOUND: 404,
  ROUND_IN_PROGRESS: 409,
  REFUSED: 502,
  WALLET_UNAVAILABLE: 503,
};

export function addLiveTableRoutes(app: Hono, store: SessionStore, rooms: LiveRooms): void {
  const handle =
    (work: (c: Context, session: NonNullable<ReturnType<SessionStore['get']>>) => Promise<unknown> | unknown) =>
    async (c: Context) => {
      const session = store.get(c.req.param('session') ?? '');
      if (!session) return c.json({ error: { code: 'SESSION_NOT_FOUND', message: 'This game session has ended' } }, 404);
      try {
        return c.json(await work(c, session));
      } catch (error) {
        if (error instanceof BettingClosedError) return c.json({ error: { code: error.code, message: error.message } }, 409);
        if (error instanceof PlayError)
          return c.json({ error: { code: error.code, message: error.message } }, STATUS[error.code]);
        throw error;
      }
    };

  app.get(
    '/play/:session/live',
    handle((_c, session) => rooms.state(session)),
  );

  app.post(
    '/play/:session/live/bets',
    handle(async (c, session) => {
      let input: unknown;
      try {
        input = ((await c.req.json()) as { input?: unknown }).input;
      } catch {
        throw new PlayError('INVALID_INPUT', 'The body is not JSON');
      }
      return rooms.placeBet(session, input);
    }),
  );
}
