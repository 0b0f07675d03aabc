package network

import (
	"time"

	"github.com/shopspring/decimal"
)

// Edge kinds: money moved, or an identifier two accounts share.
const (
	EdgeTransfer     = "TRANSFER"
	EdgeSharedDevice = "SHARED_DEVICE"
	EdgeSharedIP     = "SHARED_IP"
	EdgeSharedBVN    = "SHARED_BVN"
)

// Node is one account of the graph.
type Node struct {
	// Account is the account number (the node's id).
	Account string
	// Hop is the distance in transfers from the nearest seed (0 for a seed); accounts reached
	// only through a shared identifier have the hop of the account they share it with, plus one.
	Hop int
	// Seed marks the accounts the query started from.
	Seed bool
}

// Edge is an aggregated transfer edge (From sent to To, Count times, Total NGN) or a
// shared-identifier link (Value is the identifier; Count and Total are zero).
type Edge struct {
	From, To string
	Kind     string
	Count    int
	Total    decimal.Decimal
	First    time.Time
	Last     time.Time
	Value    string
}

// Graph is the bounded answer of a network query.
type Graph struct {
	Nodes []Node
	Edges []Edge
	// Findings are read from the transfer edges by Detect.
	Findings []Finding
	// Truncated is set when a node or edge cap stopped the traversal: the graph is a part of
	// the network and its findings may miss members.
	Truncated bool
}

// Limits bound a query. Defaults and maxima are in Normalize.
const (
	DefaultHops     = 2
	MaxHops         = 4
	DefaultMaxNodes = 300
	MaxNodesLimit   = 2000
	DefaultMaxEdges = 1000
	MaxEdgesLimit   = 5000
	DefaultPeriod   = 90 * 24 * time.Hour
	MaxPeriod       = 366 * 24 * time.Hour
	// DefaultFanThreshold is how many distinct counterparties make a fan-in or fan-out.
	DefaultFanThreshold = 5
	// Timeout bounds one network request as a whole (one deadline over all its statements).
	Timeout = 5 * time.Second
)

// Params is a network query: the seed (an account, or a customer's accounts) and its bounds.
type Params struct {
	Account      string
	CustomerID   string
	Hops         int
	From, To     time.Time
	MinAmount    decimal.Decimal
	MaxNodes     int
	MaxEdges     int
	FanThreshold int
	// SharedIdentifiers adds links between accounts that used the same device, IP address or BVN.
	SharedIdentifiers bool
}
