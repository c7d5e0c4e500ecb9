/** /cashier, /cashier/billing and /profile only redirect (spec §2). */
import { redirect } from 'react-router';
import type { Route } from './+types/fixed-redirect';
import { fixedRedirect } from '#common/address';

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const target = fixedRedirect(url.pathname);
  if (!target) throw new Response('Page not found', { status: 404 });
  throw redirect(`${target}${url.search}`);
}

export default function FixedRedirect() {
  return null;
}
