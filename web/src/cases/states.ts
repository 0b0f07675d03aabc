// The case state machine: the status buttons offered are exactly these moves (the server
// enforces the same table and answers 409 INVALID_STATUS_TRANSITION for any other).
export const transitions: Record<string, string[]> = {
  OPEN: ['IN_PROGRESS', 'ESCALATED'],
  IN_PROGRESS: ['PENDING_REVIEW', 'ESCALATED'],
  PENDING_REVIEW: ['IN_PROGRESS', 'ESCALATED', 'RESOLVED_TRUE_POSITIVE', 'RESOLVED_FALSE_POSITIVE'],
  ESCALATED: ['IN_PROGRESS', 'PENDING_REVIEW', 'RESOLVED_TRUE_POSITIVE', 'RESOLVED_FALSE_POSITIVE'],
  RESOLVED_TRUE_POSITIVE: ['CLOSED', 'IN_PROGRESS'],
  RESOLVED_FALSE_POSITIVE: ['CLOSED', 'IN_PROGRESS'],
  CLOSED: [],
};
export const statuses = Object.keys(transitions);
export const types = ['SUSPICIOUS_TRANSACTION', 'AML_ALERT', 'SANCTIONS_HIT', 'PEP_MATCH', 'FRAUD_ALERT', 'KYC_REVIEW', 'REGULATORY_INQUIRY', 'BEHAVIORAL_ANOMALY'];
export const priorities = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];
export const label = (s: string) => s.replace(/_/g, ' ').toLowerCase();
