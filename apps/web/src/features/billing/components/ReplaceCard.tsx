import { Alert, Anchor, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import type { CardChangeView } from '@sundial/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError, parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { done } from '../../../components/notify';
import { useConfirmCard, useReplaceCard } from '../api';
import { bt } from '../texts';
import { CardInputs, cardFieldErrors, useCardFields } from './CardFields';

/** What a saved card did for an overdue renewal, when there was one. */
function RenewalOutcome({ answer }: { answer: CardChangeView }) {
  const renewal = answer.renewal;
  if (!renewal) return null;
  if (renewal.status === 'renewed')
    return (
      <Alert color="green" role="status" data-testid="card-renewal">
        {bt.renewedOnNewCard}
      </Alert>
    );
  if (renewal.status === 'requires_action' && renewal.nextActionUrl)
    return (
      <Alert color="yellow" role="status" data-testid="card-renewal">
        <Stack gap={4}>
          <Text size="sm">{bt.confirmRenewal}</Text>
          <Anchor href={renewal.nextActionUrl} fw={600}>
            {bt.confirmRenewalLink}
          </Anchor>
        </Stack>
      </Alert>
    );
  return (
    <Alert color="red" role="alert" data-testid="card-renewal">
      {bt.renewalStillDue(renewal.message ?? '')}
    </Alert>
  );
}

/** The card form in a dialog: saves the card, or sends the browser to the bank's second step. */
function ReplaceCardForm(props: { onSaved: (answer: CardChangeView) => void; onClose: () => void }) {
  const { workspaceId } = useWorkspace();
  const replace = useReplaceCard(workspaceId);
  const card = useCardFields();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const token = await card.tokenize();
      if (token) {
        const answer = await replace.mutateAsync(token);
        if (answer.status === 'requires_action' && answer.nextActionUrl) {
          window.location.assign(answer.nextActionUrl);
          return;
        }
        props.onSaved(answer);
      }
    } catch (failure) {
      const { message, fields } = parseApiError(failure);
      if (!(failure instanceof ApiError && failure.status === 402) && Object.keys(fields).length > 0)
        card.setErrors(cardFieldErrors(fields));
      else setError(message);
    }
    setBusy(false);
  };
  return (
    <form onSubmit={save} noValidate aria-label={bt.replaceCardTitle}>
      <Stack gap="sm">
        <Text size="sm">{bt.replaceCardBody}</Text>
        <CardInputs card={card} />
        {error && (
          <Alert color="red" role="alert" data-testid="card-error">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          {busy && (
            <Text size="sm" c="dimmed" role="status">
              {bt.savingCard}
            </Text>
          )}
          <Button variant="default" onClick={props.onClose}>
            {bt.cancelEdit}
          </Button>
          <Button type="submit" loading={busy}>
            {bt.saveCard}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Back from the bank's second step (?card=<changeId>): saves the card and says how it went. */
function ConfirmCardReturn({ changeId, onDone }: { changeId: string; onDone: (answer: CardChangeView) => void }) {
  const { workspaceId } = useWorkspace();
  const confirm = useConfirmCard(workspaceId);
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    confirm.mutate(changeId, { onSuccess: (answer) => answer.status === 'saved' && onDone(answer) });
  }, [confirm, changeId, onDone]);
  if (confirm.isError)
    return (
      <Alert color="red" role="alert" data-testid="card-error">
        {parseApiError(confirm.error).message}
      </Alert>
    );
  if (confirm.data?.status === 'saved') return null;
  return (
    <Group>
      <Loader size="sm" aria-label={bt.checkingCard} />
      <Text size="sm">{bt.checkingCard}</Text>
    </Group>
  );
}

/**
 * "Replace card" on the running subscription: the card form in a dialog (opened at once by
 * ?replace-card=1, the link of the payment-failed e-mail), the end of the bank's second step
 * (?card=<id>), and what the new card did for an overdue renewal.
 */
export function ReplaceCard({ pastDue }: { pastDue: boolean }) {
  const [search, setSearch] = useSearchParams();
  // The dialog is open while the address says so: links elsewhere on the page (and in e-mails) open it.
  const open = search.get('replace-card') === '1';
  const [answer, setAnswer] = useState<CardChangeView | null>(null);
  const returning = search.get('card');
  const close = () => setSearch({}, { replace: true });
  const saved = (result: CardChangeView) => {
    setAnswer(result);
    setSearch({}, { replace: true });
    if (!result.renewal) done(bt.cardSaved);
  };
  return (
    <Stack gap="xs">
      {pastDue && !answer && (
        <Alert color="red" role="alert" data-testid="past-due">
          {bt.pastDue}
        </Alert>
      )}
      {returning && !answer && <ConfirmCardReturn changeId={returning} onDone={saved} />}
      {answer && <RenewalOutcome answer={answer} />}
      <Group>
        <Button variant={pastDue ? 'filled' : 'default'} onClick={() => setSearch({ 'replace-card': '1' })}>
          {bt.replaceCard}
        </Button>
      </Group>
      <Modal opened={open} onClose={close} title={bt.replaceCardTitle} size="lg">
        <ReplaceCardForm onSaved={saved} onClose={close} />
      </Modal>
    </Stack>
  );
}
