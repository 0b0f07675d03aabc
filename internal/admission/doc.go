// Package admission decides, at each stage of a screening's way through the server, whether
// the screening goes on or is refused at once with 503 SERVICE_UNAVAILABLE and Retry-After: 1
// (gRPC and Connect: UNAVAILABLE). Overload protection is here, in one place; the transports,
// the screening service and the store call it and keep only what they alone can see (the HTTP
// request, the account and timestamp of a transaction, the store's queues).
//
// # Why refuse
//
// A screening is a payment waiting. Past what the machine can screen, queuing more work only
// makes every answer late (latency grows with the work in flight while the rate answered does
// not: Little's law), and an answer later than its caller's deadline is work thrown away. So
// each stage bounds what waits there and refuses the excess for the least it can cost, and a
// bank core's retry after one second finds room. A refused screening has stored nothing: the
// same externalId sent again is screened once.
//
// # The path, stage by stage
//
//  1. The door (door.Gate, in front of every transport; COMPLYD_SCREENING_MAX_IN_FLIGHT,
//     default 128). Unary screenings in progress in the process are bounded; one more is
//     refused from its headers alone, before its body is read, transcoded, validated or
//     authenticated, in the caller's protocol (restapi.Refusals). Counted in
//     complyd_screening_gate_shed_total; the number in flight is complyd_screening_in_flight.
//     Batches and streams pass the door: a batch is bounded by BatchParallelism, a stream by
//     StreamInFlight (its handler stops reading, so HTTP/2 flow control holds the sender back).
//
//  2. The budget (Budget, COMPLYD_SCREENING_DEADLINE, default 2 s). A unary screening whose
//     caller set no deadline (every /api/v1 call) gets the server's; Over turns its expiry into
//     SERVICE_UNAVAILABLE with Retry-After, while a caller's own deadline stays
//     DEADLINE_EXCEEDED. Batches and streams get none.
//
//  3. The pace (Pace). The transport decides once how the caller waits for this answer and
//     passes it explicitly to screening.Service.Screen, which passes it to the store:
//     Budgeted (a deadline: every unary screening, a batch whose caller set one), Unbudgeted (a
//     batch without a deadline) or Streamed (a stream's message). PaceOf derives the first two
//     from the context's deadline; the transport names Streamed. Nothing about admission rides
//     in the context.
//
//  4. The account's turn (Accounts, held by screening.Service). One sender account's
//     screenings take turns from the read of its history to the commit of its transaction, in
//     transaction-timestamp order, so that the velocity rules see a burst. A Streamed
//     screening waits for its turn at most COMPLYD_SCREENING_STREAM_MAX_QUEUE_WAIT (default
//     1 s) and is then refused (complyd_screening_account_shed_total); any other waits as long
//     as its context allows. Waiting now: complyd_screening_account_wait_length.
//
//  5. The store's admission (Shed, used by the screening store before a screening joins its
//     batched read). Refused when the read queue is full (COMPLYD_SCREENING_MAX_QUEUE, default
//     1024), or while the read queue or a commit lane is not draining: the oldest screening of
//     the last batch taken waited longer than the pace's limit (Shed.Limit:
//     COMPLYD_SCREENING_MAX_QUEUE_WAIT, default 100 ms, for a Budgeted screening;
//     COMPLYD_SCREENING_STREAM_MAX_QUEUE_WAIT, default 1 s, for a paced one) with screenings
//     still waiting. The store measures (its draining function: queue lengths and recorded
//     waits); Shed decides and counts (complyd_screening_shed_total). The same measure at
//     BusyWait (25 ms) is Shed.Busy, on which River's side-effect jobs give way (jobs.Yield).
//
//  6. Dropped before the database. A screening whose caller has gone is not queued, one that
//     expires while queued is dropped by the reader before its batch is sent, and one whose
//     caller has gone before its commit is queued is not stored (the store's own checks of
//     ctx.Err). Once queued for commit it is stored whatever happens to its caller.
//
// # The floor benchmark
//
// benchfloor replaces the store's reads and writes with answers that make no database round
// trip when the binary is built with -tags benchfloor (FLOOR=1 scripts/bench-screening-ramp.sh),
// so that a ramp measures what the server spends on everything else. Stages 1 to 4 still
// apply; stage 5 is skipped with the reads. Without the tag benchfloor.Store is the identity.
//
// The operator's view of the same path (metrics, settings, what to do when each refuses) is in
// docs/guide/screening.md "Overload" and docs/guide/operations.md.
package admission
