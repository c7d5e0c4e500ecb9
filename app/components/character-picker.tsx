/**
 * Loyalty characters as a radio group of pictures: the sign-up form's character select (auth
 * config showCharacterSelect) and the loyalty character change dialog share it.
 */
import type { LoyaltyCharacter } from '#common/loyalty-contract';
import { useI18n } from '~/i18n';
import { CharacterAvatar } from './loyalty-badge';

export function CharacterPicker({
  characters,
  value,
  onChange,
  label,
}: {
  characters: LoyaltyCharacter[];
  value: number | null;
  onChange: (id: number) => void;
  label: string;
}) {
  const { t } = useI18n();
  return (
    <fieldset className="character-picker" data-field="character">
      <legend className="field__label">{label}</legend>
      <div className="character-picker__options">
        {characters.map((character) => (
          <label
            key={character.id}
            className={`character-picker__option${character.id === value ? ' character-picker__option--chosen' : ''}`}
            data-character={character.sysname}
          >
            <input
              type="radio"
              name="character"
              value={character.id}
              checked={character.id === value}
              onChange={() => onChange(character.id)}
            />
            <CharacterAvatar character={character} size={56} />
            <span>{t(`loyalty.character.${character.sysname}`)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
