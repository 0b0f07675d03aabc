package network

import (
	"fmt"
	"slices"
	"sort"

	"github.com/shopspring/decimal"
)

// Finding kinds (docs/guide/network.md "Findings").
const (
	// FindingFanIn: many distinct senders paid one account (collection, a mule's account).
	FindingFanIn = "FAN_IN"
	// FindingFanOut: one account paid many distinct receivers (dispersal).
	FindingFanOut = "FAN_OUT"
	// FindingRing: money went round a directed cycle of three or more accounts (layering).
	FindingRing = "RING"
)

// Finding is one pattern read from the transfer edges of a graph.
type Finding struct {
	Kind string
	// Account is the centre of a fan (the receiver of a fan-in, the sender of a fan-out), or
	// the smallest account number of a ring (a stable name for it).
	Account string
	// Accounts are the counterparties of a fan or the members of a ring, sorted.
	Accounts []string
	// Count is the number of transfers involved; Total their NGN sum.
	Count int
	Total decimal.Decimal
	// Description says it in words (it becomes the case description).
	Description string
}

// Detect reads fan-in, fan-out and ring findings from the transfer edges. A fan needs at least
// threshold distinct counterparties; a ring is a strongly connected set of three or more
// accounts (every member can reach every other by transfers), which holds every directed cycle
// of three or more within the graph. Findings are sorted by kind, then account.
func Detect(edges []Edge, threshold int) []Finding {
	if threshold < 2 {
		threshold = DefaultFanThreshold
	}
	type fan struct {
		peers []string
		count int
		total decimal.Decimal
	}
	in, out := map[string]*fan{}, map[string]*fan{}
	adj := map[string][]string{}
	add := func(m map[string]*fan, at, peer string, e Edge) {
		f := m[at]
		if f == nil {
			f = &fan{}
			m[at] = f
		}
		f.peers = append(f.peers, peer)
		f.count += e.Count
		f.total = f.total.Add(e.Total)
	}
	for _, e := range edges {
		if e.Kind != EdgeTransfer || e.From == e.To {
			continue
		}
		add(in, e.To, e.From, e)
		add(out, e.From, e.To, e)
		adj[e.From] = append(adj[e.From], e.To)
	}
	var fs []Finding
	for _, m := range []struct {
		kind string
		fans map[string]*fan
		verb string
	}{{FindingFanIn, in, "received from"}, {FindingFanOut, out, "sent to"}} {
		for acct, f := range m.fans {
			peers := uniq(f.peers)
			if len(peers) < threshold {
				continue
			}
			fs = append(fs, Finding{Kind: m.kind, Account: acct, Accounts: peers, Count: f.count, Total: f.total,
				Description: fmt.Sprintf("Account %s %s %d distinct accounts in %d transfers totalling NGN %s.",
					acct, m.verb, len(peers), f.count, f.total.StringFixed(2))})
		}
	}
	for _, comp := range components(adj) {
		if len(comp) < 3 {
			continue
		}
		member := map[string]bool{}
		for _, a := range comp {
			member[a] = true
		}
		var count int
		var total decimal.Decimal
		for _, e := range edges {
			if e.Kind == EdgeTransfer && member[e.From] && member[e.To] && e.From != e.To {
				count += e.Count
				total = total.Add(e.Total)
			}
		}
		fs = append(fs, Finding{Kind: FindingRing, Account: comp[0], Accounts: comp, Count: count, Total: total,
			Description: fmt.Sprintf("Money went round %d accounts (%v) in %d transfers totalling NGN %s.",
				len(comp), comp, count, total.StringFixed(2))})
	}
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].Kind != fs[j].Kind {
			return fs[i].Kind < fs[j].Kind
		}
		return fs[i].Account < fs[j].Account
	})
	return fs
}

func uniq(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}

// components returns the strongly connected components of the directed graph adj (Tarjan's
// algorithm, iterative so a long chain cannot overflow the stack), each sorted.
func components(adj map[string][]string) [][]string {
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var out [][]string
	next := 0
	nodes := make([]string, 0, len(adj))
	for n := range adj {
		nodes = append(nodes, n)
	}
	slices.Sort(nodes) // deterministic
	type frame struct {
		node string
		i    int
	}
	for _, root := range nodes {
		if _, seen := index[root]; seen {
			continue
		}
		call := []frame{{node: root}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			succ := adj[f.node]
			if f.i < len(succ) {
				w := succ[f.i]
				f.i++
				if _, seen := index[w]; !seen {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{node: w})
				} else if onStack[w] {
					low[f.node] = min(low[f.node], index[w])
				}
				continue
			}
			v := f.node
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].node
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				var comp []string
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				slices.Sort(comp)
				out = append(out, comp)
			}
		}
	}
	return out
}
