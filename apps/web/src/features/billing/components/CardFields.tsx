import { Box, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  CARD_BRAND_NAMES,
  cardBrand,
  cardFormErrors,
  cardMessages,
  cardNumberGroups,
  cvvLength,
  EXPIRY_MONTHS,
  expiryYears,
} from '@sundial/core';
import { useState } from 'react';
import { tokenizeCard } from '../api';
import { bt } from '../texts';

/** The card form's fields, and where the gateway's field errors show. */
export type CardField = 'number' | 'name' | 'expiry' | 'cvv';
export type CardErrors = Partial<Record<CardField, string>>;

/** The gateway's field names on the card form's. */
const TOKEN_FIELDS: Record<string, CardField> = {
  number: 'number',
  name: 'name',
  expMonth: 'expiry',
  expYear: 'expiry',
  cvc: 'cvv',
};

/** A 422's fields (the gateway's names) on the card form's fields. */
export function cardFieldErrors(fields: Record<string, string>): CardErrors {
  const mapped: CardErrors = {};
  for (const [field, text] of Object.entries(fields)) mapped[TOKEN_FIELDS[field] ?? 'number'] ??= text;
  return mapped;
}

/**
 * The state of a card form (payment, replacing the saved card): `tokenize()` checks the fields
 * (the errors show beside them) and hands the card to the gateway's tokenisation, answering the
 * token id, or null when a field is wrong. Card numbers never reach our API.
 */
export function useCardFields() {
  const [number, setNumber] = useState('');
  const [name, setName] = useState('');
  const [month, setMonth] = useState<number | null>(null);
  const [year, setYear] = useState<number | null>(null);
  const [cvv, setCvv] = useState('');
  const [errors, setErrors] = useState<CardErrors>({});
  const tokenize = async (): Promise<string | null> => {
    const found: CardErrors = cardFormErrors({ number, month, year, cvv }, new Date());
    if (!name.trim()) found.name = cardMessages.nameRequired;
    setErrors(found);
    if (Object.keys(found).length > 0 || month === null || year === null) return null;
    const token = await tokenizeCard({
      number: number.replace(/\s/g, ''),
      expMonth: month,
      expYear: year,
      cvc: cvv.trim(),
      name: name.trim(),
    });
    return token.id;
  };
  /** A field being corrected loses its error at once; the others keep theirs until the next Pay. */
  const editing =
    <T,>(field: CardField, setValue: (value: T) => void) =>
    (value: T) => {
      setValue(value);
      setErrors((current) => {
        if (!current[field]) return current;
        const { [field]: _cleared, ...rest } = current;
        return rest;
      });
    };
  return {
    values: { number, name, month, year, cvv },
    set: {
      number: editing('number', setNumber),
      name: editing('name', setName),
      month: editing('expiry', setMonth),
      year: editing('expiry', setYear),
      cvv: editing('cvv', setCvv),
    },
    errors,
    setErrors,
    tokenize,
  };
}

export type CardFieldsState = ReturnType<typeof useCardFields>;

/** The card as it is typed: number in groups, the brand, the holder and the expiry. */
export function CardPreview(props: { number: string; name: string; month: number | null; year: number | null }) {
  const brand = cardBrand(props.number);
  const expiry = `${props.month ? String(props.month).padStart(2, '0') : 'MM'}/${props.year ? String(props.year).slice(2) : 'YY'}`;
  return (
    <Paper
      radius="lg"
      p="lg"
      maw={380}
      h={220}
      data-testid="card-preview"
      aria-hidden="true"
      style={{
        background: 'linear-gradient(135deg, var(--mantine-color-indigo-8), var(--mantine-color-blue-6))',
        color: 'white',
      }}
    >
      <Stack justify="space-between" h="100%">
        <Group justify="flex-end">
          <Text fw={700} data-testid="card-brand">
            {brand ? CARD_BRAND_NAMES[brand] : ''}
          </Text>
        </Group>
        <Text ff="monospace" fz={22} style={{ letterSpacing: 2 }}>
          {props.number ? cardNumberGroups(props.number) : '•••• •••• •••• ••••'}
        </Text>
        <Group justify="space-between" wrap="nowrap">
          <Box>
            <Text size="xs" opacity={0.8}>
              {bt.cardHolder}
            </Text>
            <Text fw={600} tt="uppercase" truncate maw={240}>
              {props.name || 'YOUR NAME'}
            </Text>
          </Box>
          <Box>
            <Text size="xs" opacity={0.8}>
              Expires
            </Text>
            <Text fw={600}>{expiry}</Text>
          </Box>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Card number, holder, expiry and CVV, bound to `useCardFields`. */
export function CardInputs({ card }: { card: CardFieldsState }) {
  const { values, set, errors } = card;
  const brand = cardBrand(values.number);
  return (
    <>
      <TextInput
        label={bt.cardNumber}
        inputMode="numeric"
        autoComplete="cc-number"
        value={values.number}
        onChange={(e) => set.number(cardNumberGroups(e.currentTarget.value.replace(/\D/g, '').slice(0, 19)))}
        error={errors.number}
        rightSection={brand ? <Text size="xs">{CARD_BRAND_NAMES[brand]}</Text> : null}
        rightSectionWidth={brand ? 120 : undefined}
      />
      <TextInput
        label={bt.cardHolder}
        autoComplete="cc-name"
        value={values.name}
        onChange={(e) => set.name(e.currentTarget.value)}
        error={errors.name}
      />
      <Group grow align="flex-start">
        <Select
          label={bt.month}
          placeholder="MM"
          data={EXPIRY_MONTHS.map((m) => ({ value: String(m.value), label: m.label }))}
          value={values.month ? String(values.month) : null}
          onChange={(value) => set.month(value ? Number(value) : null)}
          error={errors.expiry}
        />
        <Select
          label={bt.year}
          placeholder="YYYY"
          data={expiryYears(new Date()).map(String)}
          value={values.year ? String(values.year) : null}
          onChange={(value) => set.year(value ? Number(value) : null)}
          error={Boolean(errors.expiry)}
        />
        <TextInput
          label={bt.cvv}
          inputMode="numeric"
          autoComplete="cc-csc"
          maxLength={cvvLength(brand)}
          value={values.cvv}
          onChange={(e) => set.cvv(e.currentTarget.value.replace(/\D/g, ''))}
          error={errors.cvv}
        />
      </Group>
    </>
  );
}
