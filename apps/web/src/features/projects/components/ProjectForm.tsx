import { Box, Checkbox, Divider, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useClients } from '../../../api/catalog';
import { useWorkspace } from '../../../api/session';
import { done } from '../../../components/notify';
import { type ProjectDetail, useSetProjectPeople, useUpdateProject } from '../api';
import { ColourPalette, FormFooter, NameInput, PaneHeader, saveDescription, useSubmit } from './FormParts';
import { Sections } from './sections/Sections';
import { changedPeople, initialSections, sectionsBody } from './sections/sections';

/**
 * Edit Project (read-only "Project" for those who may not edit): name, client, colour, public, the
 * sections. A member holding "Can manage" edits all but Public and People (`canManage`: projects:manage).
 */
export function ProjectForm({
  workspaceId,
  project,
  canManage,
  onClose,
}: {
  workspaceId: string;
  project: ProjectDetail;
  canManage: boolean;
  onClose: () => void;
}) {
  const budgets = useWorkspace().hasFeature('budgets');
  const update = useUpdateProject(workspaceId);
  const setPeople = useSetProjectPeople(workspaceId);
  const clients = useClients(workspaceId);
  const [name, setName] = useState(project.name);
  const [clientId, setClientId] = useState<string | null>(project.clientId);
  const [color, setColor] = useState(project.color);
  const [isPublic, setIsPublic] = useState(project.isPublic);
  const [sections, setSections] = useState(() => initialSections(project));
  const canEdit = project.canEdit;
  const { errors, onSubmit } = useSubmit(async () => {
    await update.mutateAsync({
      id: project.id,
      name,
      clientId,
      color,
      ...(canManage ? { isPublic } : {}),
      ...sectionsBody(sections, { budgets }),
    });
    const people = canManage ? changedPeople(sections, project.people) : null;
    if (people) await setPeople.mutateAsync({ id: project.id, ...people });
    done('Project saved.');
  });

  return (
    <Stack component="form" onSubmit={onSubmit} gap="md">
      <PaneHeader title={canEdit ? 'Edit Project' : 'Project'} onClose={onClose} />
      <NameInput label="Name" value={name} onValue={setName} error={errors.name} disabled={!canEdit} />
      <Select
        label="Client"
        placeholder="No client"
        data={(clients.data?.items ?? [])
          .filter((c) => !c.archived || c.id === clientId)
          .map((c) => ({ value: c.id, label: c.name }))}
        value={clientId}
        onChange={setClientId}
        clearable
        searchable
        disabled={!canEdit}
      />
      <Box>
        <Text fw={500} size="sm" mb={4}>
          Colour
        </Text>
        <ColourPalette value={color} onPick={setColor} disabled={!canEdit} />
      </Box>
      <Checkbox
        label="Public: every regular user can see it and track time to it (guests only when assigned)"
        checked={isPublic}
        onChange={(e) => setIsPublic(e.currentTarget.checked)}
        disabled={!canManage}
      />
      <Divider />
      <Sections
        workspaceId={workspaceId}
        value={sections}
        onChange={(patch) => setSections((s) => ({ ...s, ...patch }))}
        owner={{ name: project.ownerName, email: project.ownerEmail }}
        people={project.people}
        trackedSeconds={project.trackedSeconds}
        readOnly={!canEdit}
        peopleReadOnly={!canManage}
        grants
        onSaveDescription={(description) => saveDescription(update.mutateAsync, project.id, description)}
      />
      {canEdit && <FormFooter saving={update.isPending || setPeople.isPending} onCancel={onClose} />}
    </Stack>
  );
}
