import type { NetworkGraph as Graph } from '../gen/complyd/v1/network_pb';
import { money, plural } from '../ui/format';

// layout places the seeds in the centre and each hop on a ring around it (concentric circles):
// simple, stable from one render to the next, and readable up to the few hundred nodes the
// query's cap allows.
export function layout(g: Graph, size: number): Map<string, { x: number; y: number }> {
  const byHop = new Map<number, string[]>();
  for (const n of g.nodes) byHop.set(n.hop, [...(byHop.get(n.hop) ?? []), n.account]);
  const maxHop = Math.max(0, ...byHop.keys());
  const c = size / 2;
  const step = (size / 2 - 30) / Math.max(maxHop, 1);
  const pos = new Map<string, { x: number; y: number }>();
  for (const [hop, accts] of byHop) {
    const r = hop === 0 && accts.length === 1 ? 0 : Math.max(hop, 0.35) * step;
    accts.forEach((a, i) => {
      const t = (2 * Math.PI * i) / accts.length + hop * 0.3;
      pos.set(a, { x: c + r * Math.cos(t), y: c + r * Math.sin(t) });
    });
  }
  return pos;
}

// NetworkGraph draws the graph as plain SVG: transfers as arrows (thicker for more money),
// shared identifiers as dashed lines, seeds in blue, the accounts of findings in red. Clicking
// an account (or pressing Enter on it) asks to re-centre the graph there.
// size is the drawing's side in px (its viewBox): the case page's small graph draws at 360 so that
// its 10 px labels stay 10 px in a column capped at 360 px (at 640 they shrank to about 5 px).
export function NetworkGraph({ graph, flagged, onSelect, size = 640 }: { graph: Graph; flagged: Set<string>; onSelect: (account: string) => void; size?: number }) {
  const pos = layout(graph, size);
  const max = Math.max(1, ...graph.edges.map((e) => Number(e.total)));
  const showLabels = graph.nodes.length <= 60;
  return (
    <svg role="group" aria-label="Network graph" viewBox={`0 0 ${size} ${size}`} width="100%" style={{ maxWidth: size, background: '#fff', border: '1px solid #ddd' }}>
      <defs>
        <marker id="arrow" viewBox="0 0 10 10" refX="16" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill="#555" />
        </marker>
      </defs>
      {graph.edges.map((e, i) => {
        const a = pos.get(e.from), b = pos.get(e.to);
        if (!a || !b) return null;
        const transfer = e.kind === 'TRANSFER';
        return (
          <line key={i} x1={a.x} y1={a.y} x2={b.x} y2={b.y} stroke={transfer ? '#555' : '#8a5cf6'} strokeOpacity={0.7}
            strokeWidth={transfer ? 1 + 3 * (Number(e.total) / max) : 1} strokeDasharray={transfer ? undefined : '4 3'}
            markerEnd={transfer ? 'url(#arrow)' : undefined}>
            <title>{transfer ? `${e.from} → ${e.to}: ${plural(e.count, 'transfer')}, ${money(e.total)}` : `${e.from} and ${e.to} share ${e.kind.replace('SHARED_', '').toLowerCase()} ${e.value}`}</title>
          </line>
        );
      })}
      {graph.nodes.map((n) => {
        const p = pos.get(n.account)!;
        const fill = flagged.has(n.account) ? '#b00020' : n.seed ? '#0b5fff' : '#999';
        return (
          <g key={n.account} role="button" tabIndex={0} aria-label={`Account ${n.account}`} onClick={() => onSelect(n.account)}
            onKeyDown={(e) => { if (e.key === 'Enter') onSelect(n.account); }} style={{ cursor: 'pointer' }}>
            <circle cx={p.x} cy={p.y} r={n.seed ? 9 : 6} fill={fill}><title>{`${n.account} (hop ${n.hop})`}</title></circle>
            {(showLabels || n.seed || flagged.has(n.account)) && <text x={p.x > size * 0.6 ? p.x - 9 : p.x + 9} y={p.y - 8} fontSize="10" textAnchor={p.x > size * 0.6 ? 'end' : 'start'}>{n.account}</text>}
          </g>
        );
      })}
    </svg>
  );
}
