package customerstore

// LinkedCasesSQL is linkedCasesSQL, for the test that counts its buffers.
const LinkedCasesSQL = linkedCasesSQL
