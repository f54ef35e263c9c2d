import { Button, Checkbox, Group, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import {
  type BillingDetailsBody,
  type BillingDetailsView,
  billingDetailsSchema,
  COUNTRIES,
  isEuCountry,
} from '@sundial/core';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { failed } from '../../../components/notify';
import { bt } from '../texts';
import type { DraftAddress } from './Summary';

const COUNTRY_OPTIONS = COUNTRIES.map((country) => ({ value: country.code, label: country.name }));

type Field = 'name' | 'invoiceEmail' | 'address' | 'city' | 'postalCode' | 'country' | 'vatId';
type Errors = Partial<Record<Field, string>>;

const emptyForm = (initial: BillingDetailsView | null) => ({
  name: initial?.name ?? '',
  invoiceEmail: initial?.invoiceEmail ?? '',
  address: initial?.address ?? '',
  city: initial?.city ?? '',
  postalCode: initial?.postalCode ?? '',
  country: initial?.country ?? '',
  vatId: initial?.vatId ?? '',
  isBusiness: initial?.isBusiness ?? false,
});

/**
 * The invoice information and billing address of invoices: checked in the browser by the API's
 * own schema first, then saved by `save`; the API's field messages are shown on the fields. The
 * VAT ID appears for businesses in the EU.
 */
export function DetailsForm(props: {
  initial: BillingDetailsView | null;
  save: (body: BillingDetailsBody) => Promise<unknown>;
  submitLabel: string;
  busy?: boolean;
  /** Buttons beside the submit one (Cancel). */
  actions?: ReactNode;
  /** The address the VAT depends on, as it is typed (null until a country is chosen). */
  onAddressChange?: (address: DraftAddress | null) => void;
}) {
  const [form, setForm] = useState(() => emptyForm(props.initial));
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const showVat = form.isBusiness && isEuCountry(form.country);
  const { onAddressChange } = props;
  const vatId = showVat ? form.vatId : '';
  useEffect(() => {
    onAddressChange?.(
      form.country ? { country: form.country, isBusiness: form.isBusiness, vatId: vatId || null } : null,
    );
  }, [onAddressChange, form.country, form.isBusiness, vatId]);
  const set =
    (field: Field) =>
    (event: { currentTarget: { value: string } }): void => {
      const value = event.currentTarget.value;
      setForm((f) => ({ ...f, [field]: value }));
    };

  const body = (): BillingDetailsBody => ({
    name: form.name,
    invoiceEmail: form.invoiceEmail || null,
    address: form.address,
    city: form.city,
    postalCode: form.postalCode,
    country: form.country,
    vatId: showVat && form.vatId ? form.vatId : null,
    isBusiness: form.isBusiness,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = billingDetailsSchema.safeParse(body());
    if (!checked.success) {
      const found: Errors = {};
      for (const issue of checked.error.issues) {
        const field = String(issue.path[0]) as Field;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setSending(true);
    try {
      await props.save(body());
    } catch (error) {
      const { fields } = parseApiError(error);
      if (Object.keys(fields).length > 0) setErrors(fields as Errors);
      else failed(error);
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Title order={2} size="h4">
          {bt.invoiceInfo}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={bt.name} required value={form.name} onChange={set('name')} error={errors.name} />
          <TextInput
            label={bt.invoiceEmail}
            type="email"
            value={form.invoiceEmail}
            onChange={set('invoiceEmail')}
            error={errors.invoiceEmail}
          />
        </SimpleGrid>
        <Title order={2} size="h4">
          {bt.billingAddress}
        </Title>
        <TextInput label={bt.address} required value={form.address} onChange={set('address')} error={errors.address} />
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          <TextInput label={bt.city} required value={form.city} onChange={set('city')} error={errors.city} />
          <TextInput
            label={bt.postalCode}
            required
            value={form.postalCode}
            onChange={set('postalCode')}
            error={errors.postalCode}
          />
          <Select
            label={bt.country}
            required
            searchable
            data={COUNTRY_OPTIONS}
            value={form.country || null}
            onChange={(value) => setForm((f) => ({ ...f, country: value ?? '' }))}
            error={errors.country}
            nothingFoundMessage="No country found"
          />
        </SimpleGrid>
        <Checkbox
          label={bt.isBusiness}
          checked={form.isBusiness}
          onChange={(event) => {
            const checked = event.currentTarget.checked;
            setForm((f) => ({ ...f, isBusiness: checked }));
          }}
        />
        {showVat && (
          <TextInput
            label={bt.vatId}
            description={bt.vatIdHint}
            value={form.vatId}
            onChange={set('vatId')}
            error={errors.vatId}
            maw={320}
          />
        )}
        <Group>
          <Button type="submit" loading={sending || props.busy}>
            {props.submitLabel}
          </Button>
          {props.actions}
        </Group>
      </Stack>
    </form>
  );
}
