import type { ReactNode } from 'react';
import { Alert, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { errorText } from '../transport';
import { dateTime } from './format';
import { useZone } from './zone';

// Shared pieces every screen uses: loading, empty, error, paging and a labelled field, drawn
// with the design system's components so that every screen looks the same.
export function Loading() {
  return (
    <Group role="status" gap="xs" py="sm" aria-live="polite">
      <Loader size="sm" aria-hidden />
      <Text c="gray.7" size="sm">Loading…</Text>
    </Group>
  );
}

// Empty says there is nothing to show, and why (children).
export function Empty({ children }: { children: ReactNode }) {
  return (
    <Center py="md">
      <Stack gap={4} align="center">
        <IconInbox size={28} stroke={1.4} aria-hidden color="var(--mantine-color-gray-6)" />
        <Text c="gray.7" size="sm" className="empty" ta="center">{children}</Text>
      </Stack>
    </Center>
  );
}

// ErrorText is a failed call's message and field details, next to what caused it.
export function ErrorText({ error, id }: { error: unknown; id?: string }) {
  if (!error) return null;
  return (
    <Alert role="alert" id={id} color="red" variant="light" p="xs" className="error">
      <Text size="sm" c="red.9" fw={600}>{errorText(error)}</Text>
    </Alert>
  );
}

// When renders an instant in the tenant's zone with the zone named.
export function When({ t }: { t?: Timestamp }) {
  return <>{dateTime(t, useZone())}</>;
}

// when renders an instant in the default zone (Africa/Lagos): for code outside components;
// components use <When> or dateTime(t, useZone()), which follow the tenant's setting.
export function when(t?: Timestamp): string {
  return dateTime(t);
}

export function Pager({ page, totalPages, total, onPage }: { page: number; totalPages: number; total: number; onPage: (p: number) => void }) {
  return (
    <Group component="nav" aria-label="Pages" className="pager" gap="xs" my="sm" wrap="wrap">
      <Button variant="default" size="xs" disabled={page <= 1} onClick={() => onPage(page - 1)}>Previous page</Button>
      <Text size="sm">Page {page} of {Math.max(totalPages, 1)} ({total} in all)</Text>
      <Button variant="default" size="xs" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>Next page</Button>
    </Group>
  );
}

// Field labels a control given as children (a raw input, select or textarea: the shared
// stylesheet draws those like the design system's inputs); new screens use Mantine's inputs,
// which carry their own label.
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="field">
      <Text component="span" size="sm" fw={500}>{label}</Text>
      {children}
    </label>
  );
}
