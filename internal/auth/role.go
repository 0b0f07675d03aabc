package auth

// Role is one of the four tenant roles (docs/reference/specification.md §1 convention 8).
type Role string

// The roles.
const (
	RoleBankAdmin         Role = "BANK_ADMIN"
	RoleComplianceOfficer Role = "COMPLIANCE_OFFICER"
	RoleAnalyst           Role = "ANALYST"
	RoleAuditor           Role = "AUDITOR"
)

// AllRoles lists every role.
var AllRoles = []Role{RoleBankAdmin, RoleComplianceOfficer, RoleAnalyst, RoleAuditor}

// Valid reports whether r is one of the four roles.
func (r Role) Valid() bool {
	switch r {
	case RoleBankAdmin, RoleComplianceOfficer, RoleAnalyst, RoleAuditor:
		return true
	}
	return false
}

// Roles is a set of roles allowed to perform an action.
type Roles []Role

// Has reports whether r is in the set.
func (rs Roles) Has(r Role) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// Common role sets of the permission tables (docs/reference/specification.md part 5, docs/design/design-choices.md §4).
var (
	// Anyone authenticated.
	AnyRole = Roles{RoleBankAdmin, RoleComplianceOfficer, RoleAnalyst, RoleAuditor}
	// AdminOnly is BANK_ADMIN.
	AdminOnly = Roles{RoleBankAdmin}
	// Officers are BANK_ADMIN and COMPLIANCE_OFFICER.
	Officers = Roles{RoleBankAdmin, RoleComplianceOfficer}
	// Writers are every role but the read-only AUDITOR.
	Writers = Roles{RoleBankAdmin, RoleComplianceOfficer, RoleAnalyst}
	// AdminAndAuditor read the audit log.
	AdminAndAuditor = Roles{RoleBankAdmin, RoleAuditor}
)
