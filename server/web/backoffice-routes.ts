/**
 * What every back-office route file shares (the bonus, cashback and freespin routes under
 * /backoffice, behind backoffice.ts's operator token check): a Hono router that answers the
 * API's errors as 400 (403 for access), the JSON body read against a schema naming the first bad
 * field, and the player of the request's site an operator's call names.
 */
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import { ApiError } from '#common/errors';
import { invalidParameter as invalid } from '#common/parameter-errors';
import type { UserRow } from '../modules/account';
import type { AppEnv } from './app-env';

export type BackofficeEnv = AppEnv & { Variables: { operator: string } };

/** A router whose thrown ApiErrors answer in the API's envelope; `more` maps a module's own errors first. */
export function backofficeRouter(more?: (error: unknown) => ApiError | undefined) {
  const routes = new Hono<BackofficeEnv>();
  routes.onError((error, c) => {
    const answer = error instanceof ApiError ? error : more?.(error);
    if (!answer) throw error;
    return c.json({ error: answer.toBody() }, answer.type === 'AccessDeniedException' ? 403 : 400);
  });
  return routes;
}

/** The JSON body parsed by `schema`; a body that does not fit is InvalidParameterException naming its first bad field. */
export async function operatorBody<S extends z.ZodType>(c: Context<BackofficeEnv>, schema: S): Promise<z.infer<S>> {
  const parsed = schema.safeParse(await c.req.json().catch(() => ({})));
  if (!parsed.success) throw invalid(String(parsed.error.issues[0]?.path[0] ?? 'body'));
  return parsed.data;
}

/** The player `userId` names, on the request's site; another site's player or nobody is `user_id` invalid. */
export async function playerOfSite(c: Context<BackofficeEnv>, userId: number): Promise<UserRow> {
  const user = await c.get('services').accounts.findUser(userId);
  if (!user || user.siteId !== c.get('site').id) throw invalid('user_id');
  return user;
}
