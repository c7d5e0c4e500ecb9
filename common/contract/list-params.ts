/** Parameter shapes several services share. */
import { z } from 'zod';

/**
 * A comma-joined list of statuses (`active,paid_out`) as the spec's list calls send it; empty
 * means every status. An unknown status is an InvalidParameterException, like any bad value.
 */
export function statusList<const Statuses extends readonly [string, ...string[]]>(statuses: Statuses) {
  return z
    .string()
    .max(100)
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(statuses)));
}
