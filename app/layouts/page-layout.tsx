/** The three page layouts of spec §2: default (header, page, footer), empty (page only) and game. */
import type { ReactNode } from 'react';
import type { LayoutName } from '#common/route-table';
import { Header } from '~/components/header';
import { ConfirmContactHint } from '~/components/confirm-contact-hint';
import { Footer } from '~/components/footer';
import { DemoRibbon } from '~/components/demo-ribbon';
import { MainContent } from './first-paint';

export function PageLayout({
  layout,
  isFramed = false,
  children,
}: {
  layout: LayoutName;
  /** A document inside another page's frame: the ribbon is the outer page's, shown once (issue 15). */
  isFramed?: boolean;
  children: ReactNode;
}) {
  if (layout === 'empty') {
    return (
      <div className="layout layout--empty" data-layout="empty">
        {!isFramed && <DemoRibbon />}
        <MainContent>{children}</MainContent>
      </div>
    );
  }
  if (layout === 'game') {
    return (
      <div className="layout layout--game" data-layout="game">
        <DemoRibbon isCompact />
        <Header isCompact />
        <MainContent>{children}</MainContent>
      </div>
    );
  }
  return (
    <div className="layout layout--default" data-layout="default">
      <DemoRibbon />
      <Header />
      <ConfirmContactHint />
      <MainContent>{children}</MainContent>
      <Footer />
    </div>
  );
}
