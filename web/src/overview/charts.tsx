import type { ReactNode } from 'react';
import { Link } from '../ui/router';

// Plain SVG charts (no chart library): bars whose every mark is a link to the list behind it,
// with an accessible name that says the figure, so keyboard and screen-reader users (and the
// tests) reach the same numbers the eye does.

export const palette: Record<string, string> = {
  APPROVE: '#2e7d32', REVIEW: '#f9a825', ESCALATE: '#ef6c00', BLOCK: '#c62828',
  LOW: '#2e7d32', MEDIUM: '#f9a825', HIGH: '#ef6c00', CRITICAL: '#c62828',
};
const color = (k: string, i: number) => palette[k] ?? ['#1565c0', '#6a1b9a', '#00838f', '#5d4037', '#455a64'][i % 5];

export type Segment = { key: string; value: number; to: string; name: string };
export type Column = { label: string; segments: Segment[] };

// StackedColumns is a time series: one column per bucket, stacked by key.
export function StackedColumns({ title, columns }: { title: string; columns: Column[] }) {
  const max = Math.max(1, ...columns.map((c) => c.segments.reduce((s, x) => s + x.value, 0)));
  const w = 640, h = 160, gap = 2;
  const cw = columns.length ? (w - gap * columns.length) / columns.length : w;
  return (
    <figure className="chart">
      <svg role="img" aria-label={title} viewBox={`0 0 ${w} ${h + 16}`} width="100%">
        {columns.map((c, i) => {
          let y = h;
          return (
            <g key={i}>
              {c.segments.filter((s) => s.value > 0).map((s, j) => {
                const sh = (s.value / max) * h;
                y -= sh;
                return (
                  <a key={s.key} href={s.to} aria-label={s.name} onClick={(e) => navigateLink(e, s.to)}>
                    <rect x={i * (cw + gap)} y={y} width={cw} height={sh} fill={color(s.key, j)}><title>{s.name}</title></rect>
                  </a>
                );
              })}
            </g>
          );
        })}
        {columns.length > 0 && <text x={0} y={h + 14} fontSize="11">{columns[0].label}</text>}
        {columns.length > 1 && <text x={w} y={h + 14} fontSize="11" textAnchor="end">{columns[columns.length - 1].label}</text>}
      </svg>
    </figure>
  );
}

// navigateLink lets an SVG anchor use the app's router (a plain click), like Link does.
function navigateLink(e: React.MouseEvent, to: string) {
  if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  window.history.pushState(null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export type Bar = { key: string; label: string; value: number; to?: string; name: string };

// Bars is a horizontal bar chart (totals, a funnel); every bar with a target links to it.
export function Bars({ title, bars, unit }: { title: string; bars: Bar[]; unit?: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <ul className="bars" aria-label={title}>
        {bars.map((b, i) => {
          const bar = (
            <>
              <span className="bar-label">{b.label}</span>
              <svg aria-hidden="true" width="200" height="14"><rect width={Math.max(1, (b.value / max) * 200)} height="14" fill={color(b.key, i)} /></svg>
              <span className="bar-value">{b.value.toLocaleString('en')}{unit ?? ''}</span>
            </>
          );
          return <li key={b.key}>{b.to ? <Link to={b.to} aria-label={b.name}>{bar}</Link> : <span aria-label={b.name}>{bar}</span>}</li>;
        })}
      </ul>
    </figure>
  );
}

export function Card({ title, children }: { title: string; children: ReactNode }) {
  return <section className="card" aria-label={title}><h2>{title}</h2>{children}</section>;
}
