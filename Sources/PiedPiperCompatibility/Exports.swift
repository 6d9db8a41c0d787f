// PiedPiperCompatibility: PiedPiper's own spellings for code being migrated, opt-in
// because they would clash with Swift's (see MIGRATION.md). Importing it imports PiedPiper.
@_exported import PiedPiper
