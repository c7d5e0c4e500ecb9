/** /{slug}: a content page from the content store, or the not-found page with status 404. */
import { pageNotFound } from '~/api/errors';
import type { Route } from './+types/content-page';
import { DEFAULT_LOCALE, localeFromPath } from '#common/locale';
import { cmsList } from '~/content.server';
import { pageMeta } from '~/seo';
import { Icon } from '~/components/icon';

export interface ContentBlock {
  type: 'heading' | 'paragraph' | 'list';
  text?: string;
  items?: string[];
}

interface ContentPageData {
  title: string;
  blocks: ContentBlock[];
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, args.data?.title ?? 'system.notFound.header');

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const locale = localeFromPath(url.pathname) ?? DEFAULT_LOCALE;
  const [page] = await cmsList<ContentPageData>(context, 'pages', locale, { slug: params.slug });
  if (!page) pageNotFound(request);
  return { title: page.attributes.title, blocks: page.attributes.blocks ?? [] };
}

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  return (
    <article className="page page--content">
      <header className="page-band page-band--compact">
        <span className="page-band__icon">
          <Icon name="document" size={26} />
        </span>
        <h1 className="page__title">{loaderData.title}</h1>
      </header>
      <div className="prose">
        {loaderData.blocks.map((block, index) => {
          if (block.type === 'heading') return <h2 key={index}>{block.text}</h2>;
          if (block.type === 'list')
            return (
              <ul key={index}>
                {block.items?.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            );
          return <p key={index}>{block.text}</p>;
        })}
      </div>
    </article>
  );
}
