import { Select, TextInput, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import { useAccess } from '@atende/ui-shell/sdk';

/** Brazil's 27 federative units (UF), as the post office and every form in Brazil list them. */
export const UFS: ReadonlyArray<readonly [string, string]> = [
  ['AC', 'Acre'], ['AL', 'Alagoas'], ['AP', 'Amapá'], ['AM', 'Amazonas'], ['BA', 'Bahia'], ['CE', 'Ceará'], ['DF', 'Distrito Federal'],
  ['ES', 'Espírito Santo'], ['GO', 'Goiás'], ['MA', 'Maranhão'], ['MT', 'Mato Grosso'], ['MS', 'Mato Grosso do Sul'], ['MG', 'Minas Gerais'],
  ['PA', 'Pará'], ['PB', 'Paraíba'], ['PR', 'Paraná'], ['PE', 'Pernambuco'], ['PI', 'Piauí'], ['RJ', 'Rio de Janeiro'],
  ['RN', 'Rio Grande do Norte'], ['RS', 'Rio Grande do Sul'], ['RO', 'Rondônia'], ['RR', 'Roraima'], ['SC', 'Santa Catarina'],
  ['SP', 'São Paulo'], ['SE', 'Sergipe'], ['TO', 'Tocantins'],
];

const plain = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase();

/** The UF of a stored state, also when it was typed as the state's name ("são paulo" → SP); undefined when it is neither. */
export function ufOf(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const v = plain(value);
  return UFS.find(([uf, name]) => plain(uf) === v || plain(name) === v)?.[0];
}

/**
 * The contact's state: for a Brazilian company the UF as a list (search by
 * code or name), for others free text. A value typed earlier that is no UF
 * stays offered, so editing a contact never loses it silently.
 */
export function StateField({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const brazil = useAccess()?.tenant?.country === 'BR';
  if (!brazil) return <TextInput label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)} maxLength={60} />;
  const uf = ufOf(value);
  // The field shows the UF (it fits a narrow column); the list shows and searches code and name.
  const data: ComboboxItem[] = UFS.map(([code]) => ({ value: code, label: code }));
  if (value && !uf) data.unshift({ value, label: value });
  return (
    <Select
      label={label}
      data={data}
      value={uf ?? (value || null)}
      onChange={(v) => onChange(v ?? '')}
      searchable
      clearable
      filter={byCodeOrName}
      renderOption={({ option }) => (NAMES.has(option.value) ? `${option.value} — ${NAMES.get(option.value)}` : option.label)}
      nothingFoundMessage="—"
      comboboxProps={{ withinPortal: true }}
      data-testid="state-select"
    />
  );
}

const NAMES = new Map(UFS);

const byCodeOrName: OptionsFilter = ({ options, search }) => {
  const term = plain(search);
  return (options as ComboboxItem[]).filter((o) => !term || plain(o.label).includes(term) || plain(NAMES.get(o.value) ?? '').includes(term));
};
