package postgres

// The written-out inserts of the tables whose rows the pipelined writer coalesces into multi-row
// statements (coalesce.go): one place for the text that coalesce.go recognises and the stores
// send (TestInsertTextsAreSquirrels).

// insertAuditSQL is the audit record's insert, in squirrel's spelling (the pipelined writer
// coalesces it with others of the same text, coalesce.go); written out, since building it per
// record was a measurable share of a case-opening screening's CPU.
const insertAuditSQL = "INSERT INTO audit_events (id,tenant_id,actor_id,actor_type,action,resource_type,resource_id,before,after," +
	"ip_address,request_id,created_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)"

// insertCaseEventSQL is a timeline event's insert, in squirrel's spelling (see insertAuditSQL).
const insertCaseEventSQL = "INSERT INTO case_events (id,tenant_id,case_id,event_type,actor_id,description,previous_value," +
	"new_value,metadata,created_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)"

// insertCaseSQL is a case's insert, in squirrel's spelling (see insertAuditSQL).
const insertCaseSQL = "INSERT INTO cases (id,tenant_id,case_number,type,priority,title,description,status,assigned_to," +
	"related_transaction_id,related_kyc_application_id,tags,resolved_at,resolution_note,created_by,created_at,updated_at) " +
	"VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17)"

// insertEmailSQL is an outbox email's insert, in squirrel's spelling: the officers' emails of a
// batch of automatic cases go as multi-row inserts (coalesce.go).
const insertEmailSQL = "INSERT INTO emails (id,tenant_id,kind,to_address,subject,text_body,html_body,created_at) " +
	"VALUES ($1,$2,$3,$4,$5,$6,$7,$8)"

// insertNotificationSQL is a notification's insert, in squirrel's spelling (see insertAuditSQL).
const insertNotificationSQL = "INSERT INTO notifications (id,tenant_id,user_id,kind,title,message,case_id,created_at) " +
	"VALUES ($1,$2,$3,$4,$5,$6,$7,$8)"

// insertWebhookDeliverySQL is a delivery's insert, in squirrel's spelling: a batch of
// case-opening screenings queues one per event, and the pipelined writer sends them as
// multi-row inserts (coalesce.go), one statement, and one run of the table's rollup trigger, per
// chunk instead of per delivery.
const insertWebhookDeliverySQL = "INSERT INTO webhook_deliveries (id,tenant_id,event_id,event,url,payload,status,attempts," +
	"next_attempt_at,created_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)"
