// CarlosCompatibility: Carlos 0.x and PiedPiper spellings for code being migrated,
// opt-in because they would clash with Swift's and swift-log's (see MIGRATION.md).
// Importing it imports Carlos and PiedPiperCompatibility.
@_exported import Carlos
@_exported import PiedPiperCompatibility
