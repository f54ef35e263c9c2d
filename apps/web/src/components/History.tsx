import { Button, Menu } from '@mantine/core';
import { Link } from 'react-router';
import { useWorkspace } from '../api/session';

/** The audit log filtered to one object (issue 34). */
const historyPath = (subjectId: string) => `/homepage/audit-log?subjectId=${subjectId}`;

/** "History" in an object's menu, for those who may read the audit log; nothing for anyone else. */
export function HistoryMenuItem({ subjectId }: { subjectId: string }) {
  const { can } = useWorkspace();
  if (!can('audit:view')) return null;
  return (
    <Menu.Item component={Link} to={historyPath(subjectId)}>
      History
    </Menu.Item>
  );
}

/** "History" beside an object's other buttons (a row, a form), for those who may read the audit log. */
export function HistoryLink({ subjectId, label }: { subjectId: string; label: string }) {
  const { can } = useWorkspace();
  if (!can('audit:view')) return null;
  return (
    <Button component={Link} to={historyPath(subjectId)} size="compact-xs" variant="subtle" aria-label={label}>
      History
    </Button>
  );
}
