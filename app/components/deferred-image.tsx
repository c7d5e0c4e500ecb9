import { DEFERRED_ART_SCRIPT, unwatchDeferredArt, watchDeferredArt } from '~/deferred-art';

/**
 * A decorative picture that loads once it nears the screen (deferred-art.ts says why). Its size is
 * given, so the space it takes does not change when it arrives; until then the picture's own
 * background shows. Without scripts the <noscript> copy shows it at once (the stylesheet hides the
 * empty one).
 */
export function DeferredImage({
  src,
  className,
  width,
  height,
}: {
  src: string;
  className: string;
  width: number;
  height: number;
}) {
  return (
    <>
      <img ref={watch} className={className} data-deferred-art={src} alt="" width={width} height={height} decoding="async" />
      <noscript>
        <img className={className} src={src} alt="" width={width} height={height} />
      </noscript>
    </>
  );
}

function watch(image: HTMLImageElement | null) {
  if (!image) return;
  watchDeferredArt([image]);
  return () => unwatchDeferredArt(image);
}

/** At the end of the body: the server's deferred pictures are watched before the page hydrates. */
export function DeferredArtScript({ nonce }: { nonce: string | undefined }) {
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: DEFERRED_ART_SCRIPT }} />;
}
