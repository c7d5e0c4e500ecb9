/**
 * What the engines throw at a caller who breaks a game's rules. The API layer turns both into an
 * error answer; neither ever means money moved.
 */

/** An action the round's state does not allow now (out of turn, twice, after the end). */
export class GameRuleError extends Error {
  override readonly name: string = 'GameRuleError';
}

/** Parameters no round could start with (a stake that is not a positive integer, an unknown bet). */
export class InvalidBetError extends GameRuleError {
  override readonly name: string = 'InvalidBetError';
}
