#if HTTPCaching
import Carlos

extension HTTPCacheRecord: ExpensiveObject {
  /// What keeping the record in memory costs, in bytes: the response's
  /// ``HTTPResponse/cost``, the names and values of the request fields kept to
  /// match its `Vary` (``selectingFields``), ``costPerField`` for each field of
  /// either, and ``costOverhead``.
  public var cost: Int {
    let selecting = selectingFields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    let fields = response.headers.count + selectingFields.count
    return response.cost + selecting + fields * Self.costPerField + Self.costOverhead
  }

  /// What a header field costs beyond its name's and value's bytes: two
  /// strings, their storage headers and allocation rounding; 112 bytes, as
  /// measured on 64-bit Linux.
  public static let costPerField = 112

  /// What a record costs beyond its response's bytes and its fields: its
  /// dates, the arrays that hold its fields, the body's storage and the
  /// `Cache-Control` and `Vary` it keeps parsed; 256 bytes, somewhat more than
  /// a record of a small response measured on 64-bit Linux.
  public static let costOverhead = 256
}
#endif
