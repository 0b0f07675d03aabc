import type { ReactNode } from 'react';
import { Paper } from '@mantine/core';
import { StatusBadge } from './StatusBadge';

// Facts is a record's facts as a list of terms and values (a <dl>), two columns on every width:
// the term's column is as wide as its longest term, the values wrap.
export function Facts({ items, label }: { items: [string, ReactNode][]; label?: string }) {
  return (
    <Paper withBorder p="sm" component="dl" className="facts" aria-label={label} m={0}>
      {items.map(([k, v]) => <div key={k} style={{ display: 'contents' }}><dt>{k}</dt><dd>{v}</dd></div>)}
    </Paper>
  );
}

// Verified is a check's state as a badge: "Verified" or "Not verified".
export function Verified({ ok, yes = 'Verified', no = 'Not verified' }: { ok: boolean | undefined; yes?: string; no?: string }) {
  return <StatusBadge value={ok ? 'VERIFIED' : 'PENDING'} label={ok ? yes : no} />;
}
