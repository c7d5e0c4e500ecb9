/** Dates as dd.mm.yyyy and time as hours:minutes (spec §9), in the viewer's time zone. */
export const DATE_TIME_JOINER = 'a las';

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

export function formatDate(iso: string | Date): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${date.getFullYear()}`;
}

export function formatTime(iso: string | Date): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Date and time with the default joiner of spec §9 unless the content gives another. */
export function formatDateTime(iso: string | Date, joiner = DATE_TIME_JOINER): string {
  return `${formatDate(iso)} ${joiner} ${formatTime(iso)}`;
}

/** Elapsed time as h:mm:ss. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(total / 3600)}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}
