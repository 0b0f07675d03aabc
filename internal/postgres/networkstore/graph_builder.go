package networkstore

import (
	"github.com/complyd/complyd/internal/network"
)

// graphBuilder accumulates nodes and edges under the caps.
type graphBuilder struct {
	p         network.Params
	nodes     map[string]*network.Node
	order     []string
	edges     map[[2]string]network.Edge
	edgeOrder [][2]string
	truncated bool
}

// addNode adds acct at hop unless known; false when the node cap refused it.
func (b *graphBuilder) addNode(acct string, hop int) bool {
	if _, ok := b.nodes[acct]; ok {
		return true
	}
	if len(b.nodes) >= b.p.MaxNodes {
		b.truncated = true
		return false
	}
	b.nodes[acct] = &network.Node{Account: acct, Hop: hop}
	b.order = append(b.order, acct)
	return true
}

func (b *graphBuilder) addEdge(e network.Edge) {
	key := [2]string{e.Kind + "|" + e.From, e.To}
	if _, ok := b.edges[key]; ok {
		return
	}
	if len(b.edges) >= b.p.MaxEdges {
		b.truncated = true
		return
	}
	b.edges[key] = e
	b.edgeOrder = append(b.edgeOrder, key)
}

func (b *graphBuilder) known(acct string) bool { _, ok := b.nodes[acct]; return ok }
