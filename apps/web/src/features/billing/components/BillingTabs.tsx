import { Group, Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import { bt } from '../texts';

const TABS = [
  { path: '/homepage/billing', label: bt.tabs.billing },
  { path: '/homepage/invoice', label: bt.tabs.invoice },
  { path: '/homepage/billingaddress', label: bt.tabs.address },
] as const;

/** The billing area's three tab links: Your subscription, Invoice, Billing address. */
export function BillingTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = TABS.find((tab) => tab.path === pathname)?.path ?? null;
  return (
    <Group mb="md">
      <Tabs value={current} onChange={(value) => value && navigate(value)} variant="outline">
        <Tabs.List aria-label="Billing">
          {TABS.map((tab) => (
            <Tabs.Tab key={tab.path} value={tab.path}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
    </Group>
  );
}
