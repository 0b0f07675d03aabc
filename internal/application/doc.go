// Package application is the core that KYC and KYB applications share (docs/design/applications.md):
// the fields every application has (Base), the milestone order that is never lowered
// (Lifecycle), the change an update hands its store (Change), the review queue filter
// (ListParams), and the steps that are the same for both (Core): assignment, documents (upload,
// list, download, delete) and the officer decision (approve, reject, with the evidence rule of
// internal/evidence).
//
// What is each capability's own stays there: kyc has BVN/NIN, biometrics, the tiers and the
// document review; kyb has the company registry, directors and beneficial owners. Each keeps its
// audit action strings, resource type and webhook: Core builds them from Kind.Name ("kyc" gives
// kyc.approved on kyc_application), so the contracts do not change.
//
// application is core: it imports document, evidence, cases, wallet, audit, apperr, paging and
// tenancy; never pgx, river, connect, net/http or an adapter.
package application
