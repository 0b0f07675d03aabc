// Package network owns the transaction network of an account or a customer: the graph of
// counterparties read from stored transactions (k hops, a period, a minimum amount), the links
// of shared identifiers (device, IP address, BVN) between parties, and the findings read from
// the graph (fan-in, fan-out, rings) that an officer can turn into a case (issue 16 point 7,
// docs/guide/network.md).
//
// It imports cases (a finding opens a case) and lower core only; never pgx, connect or an
// adapter. The Store port does the bounded traversal; detection is pure and lives here.
package network
