/**
 * A free bet's return (issue 13 "a winning free bet pays only what it returns above its stake";
 * issue 14 "potential return"): the stake was the operator's, so it is not returned, only the
 * winnings above it. The slip, the ticket's potential return and its settled payout all use this.
 */
export function freeBetReturnMinor(returnMinor: bigint, totalStakeMinor: bigint): bigint {
  return returnMinor > totalStakeMinor ? returnMinor - totalStakeMinor : 0n;
}
