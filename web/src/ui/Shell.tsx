import type { ReactNode } from 'react';
import { AppShell, Burger, Button, Group, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconUserCircle, IconApi, IconBan, IconBuilding, IconChartBar, IconFileText, IconHistory, IconId, IconListCheck,
  IconLogout, IconSettings, IconShieldSearch, IconTransfer, IconUser, IconUsers, IconWebhook, IconKey, IconWorld, IconCpu, IconGavel, IconInbox,
} from '@tabler/icons-react';
import { useSession } from '../auth/session';
import { useRouter } from './router';
import { enumLabel } from './format';

// Nav is one entry of the navigation: its path, label and icon, and which roles see it (every
// role when absent). The server enforces the same roles; hiding an entry spares a refused screen.
type Nav = { to: string; label: string; icon: ReactNode; roles?: string[] };
type Group = { label: string; items: Nav[] };

const admin = ['BANK_ADMIN'];
const ic = { size: 18, stroke: 1.6, 'aria-hidden': true } as const;

// groups is the navigation grouped by the work it serves (issue 50 point 1).
export const groups: Group[] = [
  { label: 'Alerts and cases', items: [
    { to: '/', label: 'My queue', icon: <IconInbox {...ic} /> },
    { to: '/overview', label: 'Overview', icon: <IconChartBar {...ic} /> },
    { to: '/transactions', label: 'Transactions', icon: <IconTransfer {...ic} /> },
    { to: '/sanctions', label: 'Sanctions', icon: <IconShieldSearch {...ic} /> },
    { to: '/interdictions', label: 'Interdictions', icon: <IconBan {...ic} /> },
  ] },
  { label: 'Customers and onboarding', items: [
    { to: '/customers', label: 'Customers', icon: <IconUsers {...ic} /> },
    { to: '/kyc', label: 'KYC review', icon: <IconId {...ic} /> },
    { to: '/kyb', label: 'KYB review', icon: <IconBuilding {...ic} /> },
  ] },
  { label: 'Reporting', items: [
    { to: '/reports', label: 'Reports', icon: <IconFileText {...ic} /> },
    { to: '/audit', label: 'Audit log', icon: <IconHistory {...ic} />, roles: ['BANK_ADMIN', 'AUDITOR'] },
  ] },
  { label: 'Lists and rules', items: [
    { to: '/watchlists', label: 'Watchlists', icon: <IconListCheck {...ic} /> },
    { to: '/admin/rules', label: 'Rules', icon: <IconGavel {...ic} />, roles: ['BANK_ADMIN', 'COMPLIANCE_OFFICER'] },
    { to: '/admin/countries', label: 'Countries', icon: <IconWorld {...ic} />, roles: admin },
    { to: '/admin/engines', label: 'Engines', icon: <IconCpu {...ic} />, roles: admin },
  ] },
  { label: 'Administration', items: [
    { to: '/admin/users', label: 'Users', icon: <IconUser {...ic} />, roles: admin },
    { to: '/admin/api-keys', label: 'API keys', icon: <IconKey {...ic} />, roles: admin },
    { to: '/admin/webhooks', label: 'Webhooks', icon: <IconWebhook {...ic} />, roles: admin },
    { to: '/admin/settings', label: 'Settings', icon: <IconSettings {...ic} />, roles: admin },
    { to: '/account', label: 'My account', icon: <IconUserCircle {...ic} /> },
    { to: '/api', label: 'API', icon: <IconApi {...ic} /> },
  ] },
];

// active says whether the entry for to is the current screen's (its path or one below it).
function active(to: string, path: string) {
  if (to === '/') return path === '/' || path === '/cases' || path.startsWith('/cases/');
  return path === to || path.startsWith(to + '/');
}

// Shell is the workspace's frame: a header with the signed-in officer, tenant and sign-out, a
// navigation grouped by work (a drawer behind a burger on phones), and the screen.
export function Shell({ children }: { children: ReactNode }) {
  const { me, signOut } = useSession();
  const { loc, navigate } = useRouter();
  const [opened, { toggle, close }] = useDisclosure();
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'md', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header bg="blue.9" c="white">
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="md" size="sm" color="white" aria-label={opened ? 'Close navigation' : 'Open navigation'} />
            <Text fw={700} size="lg" component="span">complyd</Text>
          </Group>
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <Stack gap={0} style={{ minWidth: 0 }} visibleFrom="xs" align="flex-end">
              <Text size="sm" fw={600} truncate="end" data-testid="who">{me.firstName} {me.lastName}</Text>
              <Text size="xs" truncate="end">{enumLabel(me.role)} · {me.tenant?.name}</Text>
            </Stack>
            <Button variant="white" size="xs" leftSection={<IconLogout size={16} aria-hidden />} onClick={() => void signOut()}>Sign out</Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar aria-label="Main">
        <ScrollArea h="100%" type="auto">
            <Stack gap={0} p="xs">
              <Text hiddenFrom="xs" size="sm" fw={600} px="sm" py={4}>{me.firstName} {me.lastName} · {enumLabel(me.role)} · {me.tenant?.name}</Text>
              {groups.map((g) => {
                const items = g.items.filter((n) => !n.roles || n.roles.includes(me.role));
                if (items.length === 0) return null;
                return (
                  <div key={g.label} role="group" aria-labelledby={`nav-${g.label.replace(/\W+/g, '-')}`}>
                    <Text id={`nav-${g.label.replace(/\W+/g, '-')}`} size="xs" fw={700} tt="uppercase" c="gray.7" px="sm" pt="sm" pb={4}>{g.label}</Text>
                    {items.map((n) => (
                      <NavLink key={n.to} href={n.to} label={n.label} leftSection={n.icon} active={active(n.to, loc.path)}
                        aria-current={active(n.to, loc.path) ? 'page' : undefined}
                        onClick={(e) => {
                          if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
                          e.preventDefault();
                          navigate(n.to);
                          close();
                        }} />
                    ))}
                  </div>
                );
              })}
            </Stack>
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main style={{ minWidth: 0 }}>
        <div style={{ maxWidth: 1280, minWidth: 0 }}>{children}</div>
      </AppShell.Main>
    </AppShell>
  );
}
