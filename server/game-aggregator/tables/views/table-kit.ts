/**
 * Pieces the table views share: card names and art in the view's language, dealing a card into a
 * row (slides in from the shoe and turns over; at once with reduced motion), drawn chips on bet
 * spots, and the stake steps of a table's limits.
 */
import type { Card } from '../cards';
import type { ViewContext } from '../../client/view';
import { html } from '../../client/wait';
import { cardBackSvg, cardSvg } from './card-art';

export function cardName(context: ViewContext, card: Card): string {
  const rank = card.rank === 1 || card.rank >= 11 ? context.t(`cards.rank.${card.rank}`) : String(card.rank);
  return context.t('cards.of', { rank, suit: context.t(`cards.suit.${card.suit}`) });
}

/** Deals one card into a row; face down when `card` is undefined. Returns the card's slot. */
export async function dealCard(context: ViewContext, row: Element, card: Card | undefined): Promise<HTMLElement> {
  const slot = html(
    `<div class="tcard${context.reducedMotion ? '' : ' is-arriving'}">${
      card ? cardSvg(card, cardName(context, card)) : cardBackSvg(context.t('tables.faceDown'))
    }</div>`,
  );
  row.append(slot);
  await context.pause(380);
  slot.classList.remove('is-arriving');
  return slot;
}

/** Turns a face-down card over. */
export async function revealCard(context: ViewContext, slot: HTMLElement, card: Card): Promise<void> {
  if (!context.reducedMotion) {
    slot.classList.add('is-turning');
    await context.pause(180);
  }
  slot.innerHTML = cardSvg(card, cardName(context, card));
  slot.classList.remove('is-turning');
  await context.pause(180);
}

/** A drawn chip stack (one to three chips by the amount's size) for a bet spot. */
export function chipSvg(amountMinor: bigint): string {
  const chips = amountMinor >= 10_000n ? 3 : amountMinor >= 1_000n ? 2 : 1;
  const colour =
    amountMinor >= 10_000n ? '#212121' : amountMinor >= 2_500n ? '#2e7d32' : amountMinor >= 500n ? '#c62828' : '#1565c0';
  return `<svg class="chip" viewBox="0 0 40 ${24 + chips * 5}" aria-hidden="true" focusable="false">${Array.from(
    { length: chips },
    (_, index) => {
      const y = 12 + (chips - 1 - index) * 5;
      return `<g transform="translate(20 ${y})"><ellipse rx="17" ry="9" cy="3" fill="#000" opacity=".25"/><ellipse rx="17" ry="9" fill="${colour}" stroke="#fff" stroke-width="1.5"/><ellipse rx="11" ry="5.6" fill="none" stroke="#fff" stroke-width="1.4" stroke-dasharray="3 2.6"/></g>`;
    },
  ).join('')}</svg>`;
}

/** Chip values from the table's minimum up to its maximum (1, 2, 5 steps). */
export function stakeSteps(minMinor: bigint, maxMinor: bigint): bigint[] {
  const steps: bigint[] = [];
  for (let decade = 1n; decade <= maxMinor; decade *= 10n)
    for (const factor of [1n, 2n, 5n]) {
      const value = decade * factor;
      if (value >= minMinor && value <= maxMinor) steps.push(value);
    }
  return steps.slice(0, 12);
}
