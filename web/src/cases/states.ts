// The case statuses, for filters. Which moves a case may make is the server's answer
// (Case.allowedTransitions on the detail), never a copy of the state machine kept here.
export const statuses = ['OPEN', 'IN_PROGRESS', 'PENDING_REVIEW', 'ESCALATED', 'RESOLVED_TRUE_POSITIVE', 'RESOLVED_FALSE_POSITIVE', 'CLOSED'];
export const types = ['SUSPICIOUS_TRANSACTION', 'AML_ALERT', 'SANCTIONS_HIT', 'PEP_MATCH', 'FRAUD_ALERT', 'KYC_REVIEW', 'REGULATORY_INQUIRY', 'BEHAVIORAL_ANOMALY'];
export const priorities = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];
export const label = (s: string) => s.replace(/_/g, ' ').toLowerCase();
