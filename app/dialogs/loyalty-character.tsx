/**
 * The loyalty character change dialog and its confirm (spec §2 dialog components). The change
 * dialog closes with the picked character (or nothing); the confirm closes with true to agree.
 * Saving is the caller's: setcharacter, then the info is refetched (spec §4).
 */
import { useState } from 'react';
import type { LoyaltyCharacter } from '#common/loyalty-contract';
import { useI18n } from '~/i18n';
import { CharacterPicker } from '~/components/character-picker';
import { CharacterAvatar } from '~/components/loyalty-badge';
import type { DialogComponentProps } from './dialog-context';

export function LoyaltyCharacterChange({
  close,
  characters,
  currentId,
}: DialogComponentProps & { characters: LoyaltyCharacter[]; currentId: number | null }) {
  const { t } = useI18n();
  const [chosenId, setChosenId] = useState<number | null>(currentId);
  const chosen = characters.find((character) => character.id === chosenId);
  return (
    <div className="confirm" data-loyalty-character-change>
      <h2 className="dialog__title">{t('loyalty.character.changeTitle')}</h2>
      <CharacterPicker characters={characters} value={chosenId} onChange={setChosenId} label={t('loyalty.character.pick')} />
      <div className="confirm__actions">
        <button type="button" className="button button--ghost" onClick={() => close()}>
          {t('dialog.cancel')}
        </button>
        <button
          type="button"
          className="button button--primary"
          data-action="choose-character"
          disabled={!chosen || chosen.id === currentId}
          onClick={() => close(chosen)}
        >
          {t('loyalty.character.choose')}
        </button>
      </div>
    </div>
  );
}

export function LoyaltyCharacterConfirm({ close, character }: DialogComponentProps & { character: LoyaltyCharacter }) {
  const { t } = useI18n();
  const name = t(`loyalty.character.${character.sysname}`);
  return (
    <div className="confirm" data-loyalty-character-confirm>
      <h2 className="dialog__title">{t('loyalty.character.confirmTitle', { name })}</h2>
      <CharacterAvatar character={character} size={96} />
      <p>{t('loyalty.character.confirmText')}</p>
      <div className="confirm__actions">
        <button type="button" className="button button--ghost" onClick={() => close(false)}>
          {t('dialog.cancel')}
        </button>
        <button type="button" className="button button--primary" data-action="confirm-character" onClick={() => close(true)}>
          {t('dialog.agree')}
        </button>
      </div>
    </div>
  );
}
