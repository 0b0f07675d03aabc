package postgres

// Names the sub-package rescreenstore uses (docs/design/architecture.md "Storage adapter"):
// exported wrappers, so that the files that declare them stay as they are.

import ()

// OpenKYCIdentifier is openKYCIdentifier, exported.
func (db *DB) OpenKYCIdentifier(tenantID, id, column string, sealed []byte, legacy string) (string, error) {
	return db.openKYCIdentifier(tenantID, id, column, sealed, legacy)
}

type ProfileData = profileData
