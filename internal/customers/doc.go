// Package customers owns the customer view of a saved profile (issue 16 point 5,
// docs/guide/customers.md): what is linked to it (KYC/KYB applications, accounts seen in screening,
// cases, sanctions reviews), its risk rating from documented factors, the rating's history, and
// the periodic review its rating sets.
//
// Core: it imports lookup (the profiles), screening (the FATF country lists) and lower core;
// never pgx, river, connect or an adapter. Recomputations are queued by the database in the
// transaction of the change (migration 0017's triggers) and run by a River job; this package
// only says how to rate.
package customers
