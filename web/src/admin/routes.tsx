import type { ReactNode } from 'react';
import { Users } from './users/Users';
import { Profile } from './users/Profile';
import { ApiKeys } from './apikeys/ApiKeys';
import { Webhooks } from './webhooks/Webhooks';
import { Rules } from './rules/Rules';
import { Settings } from './settings/Settings';
import { Countries } from './countries/Countries';
import { Engines } from './engines/Engines';

// The administration screens (issue 17): BANK_ADMIN only, but for the own account, which every
// role has. The API enforces the same roles; hiding the links only spares a refused screen.
// Rules are also the compliance officers' (they draft, shadow and publish rule drafts, issue 53).
const adminScreens: Record<string, { name: string; screen: () => ReactNode; roles?: string[] }> = {
  '/admin/users': { name: 'Users', screen: () => <Users /> },
  '/admin/api-keys': { name: 'API keys', screen: () => <ApiKeys /> },
  '/admin/webhooks': { name: 'Webhooks', screen: () => <Webhooks /> },
  '/admin/rules': { name: 'Rules', screen: () => <Rules />, roles: ['BANK_ADMIN', 'COMPLIANCE_OFFICER'] },
  '/admin/settings': { name: 'Settings', screen: () => <Settings /> },
  '/admin/countries': { name: 'Countries', screen: () => <Countries /> },
  '/admin/engines': { name: 'Engines', screen: () => <Engines /> },
};

// adminScreen returns the screen for path, or null when path is not an administration path.
export function adminScreen(path: string, role: string): ReactNode | null {
  if (path === '/account') return <Profile />;
  const s = adminScreens[path];
  if (!s) return null;
  return (s.roles ?? ['BANK_ADMIN']).includes(role) ? s.screen() : <section><h1>Not allowed</h1><p>Only a bank administrator manages {s.name.toLowerCase()}.</p></section>;
}
