import { Button, Group, Paper, PasswordInput, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { DATE_FORMATS, DURATION_FORMATS, type DurationFormat, TIME_FORMATS, WEEK_STARTS } from '@sundial/core';
import { type FormEvent, useState } from 'react';
import { useOutletContext } from 'react-router';
import { parseApiError } from '../../../api/client';
import { type Me, useWorkspace } from '../../../api/session';
import { ApiKeysSection } from '../../../components/api-keys/ApiKeysSection';
import { NewPasswordField } from '../../../components/fields';
import { failed } from '../../../components/notify';
import { TimeZoneSelect } from '../../../components/TimeZoneSelect';
import { useChangePassword, useCreateWorkspace, useRenameWorkspace, useUpdateProfile } from '../api';
import { AllowedEmailDomainsSetting } from '../components/AllowedEmailDomainsSetting';
import { CalendarFeedSection } from '../components/CalendarFeedSection';
import { DevicesSection } from '../components/DevicesSection';
import { LinkedIdentitiesSection } from '../components/LinkedIdentitiesSection';
import { SessionsSection } from '../components/SessionsSection';
import { TwoFactorPolicySetting } from '../components/TwoFactorPolicySetting';
import { TwoFactorSection } from '../components/TwoFactorSection';
import { WorkspaceLogo } from '../components/WorkspaceLogo';

const WEEK_START_LABELS: Record<string, string> = { monday: 'Monday', sunday: 'Sunday', saturday: 'Saturday' };
const TIME_FORMAT_LABELS: Record<string, string> = { '24h': '24-hour (17:30)', '12h': '12-hour (5:30 PM)' };
const DURATION_FORMAT_LABELS: Record<DurationFormat, string> = {
  'h:mm:ss': 'h:mm:ss (1:30:15)',
  'h:mm': 'h:mm (1:30)',
  decimal: 'Decimal hours (1.50)',
};
const saved = (message: string) => notifications.show({ color: 'green', message });

function ProfileForm({ me }: { me: Me }) {
  const update = useUpdateProfile();
  // Browsers leave "UTC" out of their list; keep it and whatever the user has selectable.
  const [name, setName] = useState(me.user.name);
  const [timeZone, setTimeZone] = useState(me.user.timeZone);
  const [weekStart, setWeekStart] = useState(me.user.weekStart);
  const [dateFormat, setDateFormat] = useState(me.user.dateFormat);
  const [timeFormat, setTimeFormat] = useState(me.user.timeFormat);
  const [durationFormat, setDurationFormat] = useState<DurationFormat>(me.user.durationFormat);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    update.mutate(
      {
        name,
        timeZone,
        weekStart: weekStart as never,
        dateFormat: dateFormat as never,
        timeFormat: timeFormat as never,
        durationFormat,
      },
      {
        onSuccess: () => saved('Profile saved.'),
        onError: (error) => {
          setErrors(parseApiError(error).fields);
          failed(error);
        },
      },
    );
  };

  return (
    <Paper withBorder p="lg" radius="md" component="form" onSubmit={handleSubmit}>
      <Title order={2} size="h4" mb="md">
        Profile
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Email" value={me.user.email} readOnly disabled />
        <TextInput
          label="Name"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          maxLength={100}
        />
        <TimeZoneSelect label="Time zone" value={timeZone} onChange={setTimeZone} error={errors.timeZone} />
        <Select
          label="Week starts on"
          data={WEEK_STARTS.map((value) => ({ value, label: WEEK_START_LABELS[value] ?? value }))}
          value={weekStart}
          onChange={(v) => v && setWeekStart(v)}
          allowDeselect={false}
        />
        <Select
          label="Date format"
          data={[...DATE_FORMATS]}
          value={dateFormat}
          onChange={(v) => v && setDateFormat(v)}
          allowDeselect={false}
        />
        <Select
          label="Time format"
          data={TIME_FORMATS.map((value) => ({ value, label: TIME_FORMAT_LABELS[value] ?? value }))}
          value={timeFormat}
          onChange={(v) => v && setTimeFormat(v)}
          allowDeselect={false}
        />
        <Select
          label="Duration format"
          description="How every screen, report and export shows time spent"
          data={DURATION_FORMATS.map((value) => ({ value, label: DURATION_FORMAT_LABELS[value] }))}
          value={durationFormat}
          onChange={(v) => v && setDurationFormat(v as DurationFormat)}
          error={errors.durationFormat}
          allowDeselect={false}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="md">
        <Button type="submit" loading={update.isPending}>
          Save profile
        </Button>
      </Group>
    </Paper>
  );
}

function PasswordForm() {
  const change = useChangePassword();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setCurrent('');
          setNew('');
          saved('Password changed. Your other sessions were signed out.');
        },
        onError: (error) => setErrors(parseApiError(error).fields),
      },
    );
  };

  return (
    <Paper withBorder p="lg" radius="md" component="form" onSubmit={handleSubmit}>
      <Title order={2} size="h4" mb="md">
        Password
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={(e) => setCurrent(e.currentTarget.value)}
          error={errors.currentPassword}
          required
        />
        <NewPasswordField label="New password" value={newPassword} onChange={setNew} error={errors.newPassword} />
      </SimpleGrid>
      <Group justify="flex-end" mt="md">
        <Button type="submit" loading={change.isPending}>
          Change password
        </Button>
      </Group>
    </Paper>
  );
}

function WorkspaceForm() {
  const { workspace } = useWorkspace();
  const rename = useRenameWorkspace();
  const create = useCreateWorkspace();
  const [name, setName] = useState(workspace.name);
  const [newName, setNewName] = useState('');
  const canRename = workspace.role === 'owner' || workspace.role === 'admin';

  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} size="h4" mb="md">
        Workspace
      </Title>
      <Stack>
        <Group align="flex-end">
          <TextInput
            label="Workspace name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            disabled={!canRename}
            style={{ flex: 1, minWidth: 180 }}
            maxLength={100}
          />
          <Button
            variant="light"
            disabled={!canRename}
            loading={rename.isPending}
            onClick={() =>
              rename.mutate(
                { id: workspace.id, name },
                { onSuccess: () => saved('Workspace renamed.'), onError: failed },
              )
            }
          >
            Rename
          </Button>
        </Group>
        <WorkspaceLogo workspace={workspace} canEdit={canRename} />
        {canRename && <TwoFactorPolicySetting />}
        {canRename && <AllowedEmailDomainsSetting workspaceId={workspace.id} />}
        <Group align="flex-end">
          <TextInput
            label="New workspace"
            placeholder="e.g. Acme Studio"
            value={newName}
            onChange={(e) => setNewName(e.currentTarget.value)}
            style={{ flex: 1, minWidth: 180 }}
            maxLength={100}
          />
          <Button
            variant="light"
            loading={create.isPending}
            onClick={() =>
              create.mutate(newName, {
                onSuccess: () => {
                  setNewName('');
                  saved('Workspace created. You are now working in it.');
                },
                onError: failed,
              })
            }
          >
            Create workspace
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

export function ProfilePage() {
  const me = useOutletContext<Me>();
  return (
    <Stack maw={900}>
      <ProfileForm me={me} />
      <PasswordForm />
      <TwoFactorSection />
      <LinkedIdentitiesSection />
      <SessionsSection />
      <ApiKeysSection />
      <DevicesSection />
      <CalendarFeedSection />
      <WorkspaceForm key={me.currentWorkspaceId} />
    </Stack>
  );
}
