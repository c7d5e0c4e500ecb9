/** Banks a bank-transfer withdrawal can go to (cashier.getbanks), by the player's currency. */
import type { Bank } from '#common/cashier-contract';

export const BANKS: Record<string, Bank[]> & { default: Bank[] } = {
  default: [
    { code: 'SANDBOX-BANK', name: 'Sandbox Bank' },
    { code: 'OTHER', name: 'Other bank (IBAN)' },
  ],
  EUR: [
    { code: 'DEUTDEFF', name: 'Deutsche Bank' },
    { code: 'BNPAFRPP', name: 'BNP Paribas' },
    { code: 'UNCRITMM', name: 'UniCredit' },
    { code: 'INGBNL2A', name: 'ING' },
    { code: 'OTHER', name: 'Other bank (IBAN)' },
  ],
  USD: [
    { code: 'CHASUS33', name: 'JPMorgan Chase' },
    { code: 'BOFAUS3N', name: 'Bank of America' },
    { code: 'OTHER', name: 'Other bank (IBAN)' },
  ],
  BRL: [
    { code: 'BRASBRRJ', name: 'Banco do Brasil' },
    { code: 'ITAUBRSP', name: 'Itaú Unibanco' },
    { code: 'OTHER', name: 'Other bank (IBAN)' },
  ],
};
