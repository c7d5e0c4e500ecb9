/** Pieces the bonus, cashback and promotion pages share (issue 13). */
import type { ReactNode } from 'react';

/** One term of an offer or a bonus: a label over its value, inside a <dl className="bonus-card__terms">. */
export function Term({ label, value }: { label: string; value: string }) {
  return (
    <div className="bonus-card__term">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** A history list of ended bonuses or cashbacks: a titled section around one card of rows. */
export function HistorySection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="bonus-section" aria-label={title}>
      <h2 className="bonus-section__title">{title}</h2>
      <ul className="card bonus-history">{children}</ul>
    </section>
  );
}

/** One row of a history list: what, its status, its amount, and the day it ended. */
export function HistoryRow(props: {
  data: Record<string, string | number>;
  title: string;
  status: string;
  amount: string;
  date: string;
}) {
  return (
    <li className="bonus-history__row" {...props.data}>
      <span className="bonus-history__title">{props.title}</span>
      <span className="bonus-history__status">{props.status}</span>
      <span className="bonus-history__amount">{props.amount}</span>
      <span className="bonus-history__date">{props.date}</span>
    </li>
  );
}
