package postgres

// Names the sub-package caseviewstore uses (docs/design/architecture.md "Storage adapter"):
// exported wrappers, so that the files that declare them stay as they are.

type EngineJSON = engineJSON
