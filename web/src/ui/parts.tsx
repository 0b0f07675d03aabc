import type { ReactNode } from 'react';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { errorText } from '../transport';

// Shared pieces every screen uses: loading, empty, error and paging.
export function Loading() {
  return <p role="status" className="muted">Loading…</p>;
}
export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}
export function ErrorText({ error, id }: { error: unknown; id?: string }) {
  if (!error) return null;
  return <p role="alert" id={id} className="error">{errorText(error)}</p>;
}
export function when(t?: Timestamp): string {
  return t ? timestampDate(t).toISOString().replace('T', ' ').slice(0, 16) : '—';
}
export function Pager({ page, totalPages, total, onPage }: { page: number; totalPages: number; total: number; onPage: (p: number) => void }) {
  return (
    <nav aria-label="Pages" className="pager">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>Previous page</button>
      <span>Page {page} of {Math.max(totalPages, 1)} ({total} in all)</span>
      <button type="button" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>Next page</button>
    </nav>
  );
}
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return <label className="field"><span>{label}</span>{children}</label>;
}
