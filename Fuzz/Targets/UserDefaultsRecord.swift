import Foundation

@testable import Carlos

typealias Fuzzed = UserDefaultsRecord

/// The user-defaults level's record: what the level finds under a key is read as a
/// ``UserDefaultsStoredRecord``. The first input byte picks where that value comes
/// from: even, a value built from the rest by ``PropertyListValues`` (any mix of
/// the types `UserDefaults` hands back); odd, the rest read as an XML property
/// list (a suite's file on Linux) by Foundation.
///
/// Binary property lists are left out: swift-corelibs-foundation crashes (a null
/// dereference bridging an `NSSet`) on a binary list holding a set, before Carlos
/// sees a value (see Fuzz/README.md).
///
/// Invariants: no crash whatever the value; a record without a storage time comes
/// from plain data alone; and any other accepted record, written back as the level
/// writes it (``UserDefaultsStoredRecord/propertyList``) and serialised, reads back
/// as the same record.
enum UserDefaultsRecord: FuzzTarget {
  static func seeds() -> [[UInt8]] {
    let records = [
      UserDefaultsStoredRecord(
        data: Data("value".utf8), storedAt: 1_700_000_000_000_000_000, expiresAt: nil),
      UserDefaultsStoredRecord(
        data: Data([0, 1, 2, 255]), storedAt: 1_700_000_000_000_000_000,
        expiresAt: 1_700_000_300_000_000_000),
      UserDefaultsStoredRecord(data: Data(), storedAt: -1, expiresAt: Int64.min),
    ]
    var lists: [Any] = records.map(\.propertyList)
    // Plain data, as written before expiry existed, and something foreign.
    lists.append(Data("plain".utf8))
    lists.append(["value": "not data", "storedAt": 3.5])
    var seeds: [[UInt8]] = [
      // Built values: a record with both times as integers; one with a double.
      [
        0, 11, 3, 0, 0, 4, 1, 2, 3, 4, 1, 2, 0, 0, 0, 0, 0, 0, 0, 42, 2, 8, 0, 0, 0, 0, 0, 0, 0, 99,
      ],
      [0, 11, 2, 0, 0, 0, 1, 4, 0x43, 0xE0, 0, 0, 0, 0, 0, 0],
    ]
    for list in lists {
      if let data = try? PropertyListSerialization.data(
        fromPropertyList: list, format: .xml, options: 0)
      {
        seeds.append([1] + Array(data))
      }
    }
    return seeds
  }

  static func fuzz(_ input: UnsafeRawBufferPointer) {
    guard let selector = input.first else { return }
    let rest = UnsafeRawBufferPointer(rebasing: input.dropFirst())
    let list: Any
    if selector % 2 == 0 {
      var values = PropertyListValues(rest)
      list = values.next()
    } else {
      guard !rest.starts(with: Array("bplist".utf8)),
        let parsed = try? PropertyListSerialization.propertyList(
          from: Data(rest), options: [], format: nil)
      else { return }
      list = parsed
    }
    guard let record = UserDefaultsStoredRecord(list) else { return }
    _ = record.isExpired(at: 0)
    guard record.storedAt != nil else {
      // Plain data, as written before expiry existed: the level no longer writes
      // it, so there is no writer to round-trip through.
      require(
        record.expiresAt == nil && (list as? Data) == record.data,
        "\(record) read from something other than plain data without a storage time")
      return
    }
    let written: Data
    do {
      written = try PropertyListSerialization.data(
        fromPropertyList: record.propertyList, format: .xml, options: 0)
    } catch {
      fatalError("the record's property list cannot be serialised: \(error)")
    }
    guard
      let reread = try? PropertyListSerialization.propertyList(
        from: written, options: [], format: nil),
      let again = UserDefaultsStoredRecord(reread)
    else {
      fatalError("the record written back is not read as a record")
    }
    require(
      again.data == record.data && again.storedAt == record.storedAt
        && again.expiresAt == record.expiresAt,
      "record \(record) reads back as \(again)")
  }
}
