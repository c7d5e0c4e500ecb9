/**
 * A PIX-style "copia e cola" payload (EMV merchant-presented QR, as the Brazilian BR Code uses):
 * tag-length-value fields ending in a CRC16-CCITT checksum. The sandbox shows it as a QR code
 * and as text; no bank reads it, but it has the shape a real one would.
 */

const CURRENCY_NUMERIC: Record<string, string> = { BRL: '986', EUR: '978', USD: '840', GBP: '826' };

function field(tag: string, value: string): string {
  return `${tag}${String(value.length).padStart(2, '0')}${value}`;
}

/** CRC16-CCITT (polynomial 0x1021, initial 0xFFFF), as EMV QR codes use. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** ASCII only, upper case, at most `max` characters: what the EMV name and city fields allow. */
function plain(text: string, max: number): string {
  return (
    text
      .normalize('NFD')
      .replace(/[^\x20-\x7e]/g, '')
      .toUpperCase()
      .trim()
      .slice(0, max) || 'SANDBOX'
  );
}

export function pixPayload(input: {
  key: string;
  merchantName: string;
  amountMinor: bigint;
  currency: string;
  txid: string;
}): string {
  const units = input.amountMinor / 100n;
  const cents = String(input.amountMinor % 100n).padStart(2, '0');
  const body =
    field('00', '01') +
    field('26', field('00', 'br.gov.bcb.pix') + field('01', input.key)) +
    field('52', '0000') +
    field('53', CURRENCY_NUMERIC[input.currency] ?? '986') +
    field('54', `${units}.${cents}`) +
    field('58', 'BR') +
    field('59', plain(input.merchantName, 25)) +
    field('60', 'SAO PAULO') +
    field('62', field('05', input.txid.replace(/[^A-Za-z0-9]/g, '').slice(0, 25)));
  const withCrcTag = `${body}6304`;
  return withCrcTag + crc16(withCrcTag);
}
