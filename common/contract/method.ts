/**
 * How the contract declares one product-API method: the parameters it takes (zod, so the server
 * parses with them and the app types its calls by their input) and the answer it gives.
 */
import type { z } from 'zod';

export interface MethodContract<Params extends z.ZodType = z.ZodType, Result = unknown> {
  params: Params;
  /** Refused with AuthorizationException to an anonymous visitor. */
  requiresUser: boolean;
  /**
   * Answers even while the site is closed to this visitor (maintenance, blocked country): the
   * site needs it to render the page that says so.
   */
  isAvailableWhenClosed: boolean;
  /**
   * A method the spec lets a GET change state with (auth.logout): the cross-site check applies to
   * its GETs too, or any page elsewhere could sign a player out with a link or an image.
   */
  isCrossSiteRefusedOnGet: boolean;
  /** Never set at run time: it only carries the answer's type to both sides. */
  readonly result?: Result;
}

interface MethodSpec<Params extends z.ZodType> {
  params: Params;
  requiresUser?: boolean;
  isAvailableWhenClosed?: boolean;
  isCrossSiteRefusedOnGet?: boolean;
}

/**
 * `method<Answer>()({ params, requiresUser })`: curried so the answer type is written out while
 * the schema's type is inferred.
 */
export function method<Result>() {
  return <Params extends z.ZodType>(spec: MethodSpec<Params>): MethodContract<Params, Result> => ({
    params: spec.params,
    requiresUser: spec.requiresUser ?? false,
    isAvailableWhenClosed: spec.isAvailableWhenClosed ?? false,
    isCrossSiteRefusedOnGet: spec.isCrossSiteRefusedOnGet ?? false,
  });
}

/** Mutations the spec says succeed on `1` answer `{"data": 1}`. */
export type Done = 1;
