/**
 * Live prices of one event (issue 14: "prices reach open pages in real time"): follows
 * /platform/sportsbook/prices?event_id=… and answers the event as it stands, with the outcomes
 * whose price just moved (up or down) for a short highlight.
 */
import { useEffect, useRef, useState } from 'react';
import type { SportEventDetail } from '#common/contract/sportsbook';
import type { Locale } from '#common/locale';
import { selectionKey } from '~/sportsbook/slip';

/** How long a moved price stays highlighted. */
const HIGHLIGHT_MS = 2_000;

export type PriceMove = 'up' | 'down';

function pricesOf(detail: SportEventDetail): Map<string, number> {
  const prices = new Map<string, number>();
  for (const market of detail.groups.flatMap((group) => group.markets))
    for (const outcome of market.outcomes)
      prices.set(
        selectionKey({ event_id: detail.event.id, market_key: market.key, outcome_id: outcome.id }),
        Number(outcome.odds),
      );
  return prices;
}

export function usePriceStream(initial: SportEventDetail, locale: Locale) {
  const [detail, setDetail] = useState(initial);
  const [moves, setMoves] = useState<ReadonlyMap<string, PriceMove>>(new Map());
  // What the page shows now, for telling which prices the next message moves.
  const shown = useRef(initial);
  const eventId = initial.event.id;

  // A new event (or new loader data for it) replaces what the stream had.
  useEffect(() => {
    shown.current = initial;
    setDetail(initial);
  }, [initial]);

  useEffect(() => {
    const source = new EventSource(
      `/platform/sportsbook/prices?event_id=${encodeURIComponent(eventId)}&locale=${encodeURIComponent(locale)}`,
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    source.addEventListener('prices', (message: MessageEvent<string>) => {
      const next = JSON.parse(message.data) as SportEventDetail;
      const before = pricesOf(shown.current);
      const changed = new Map<string, PriceMove>();
      for (const [key, price] of pricesOf(next)) {
        const old = before.get(key);
        if (old !== undefined && old !== price) changed.set(key, price > old ? 'up' : 'down');
      }
      shown.current = next;
      setDetail(next);
      if (changed.size > 0) {
        setMoves(changed);
        clearTimeout(timer);
        timer = setTimeout(() => setMoves(new Map()), HIGHLIGHT_MS);
      }
    });
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [eventId, locale]);

  return { detail, moves };
}
