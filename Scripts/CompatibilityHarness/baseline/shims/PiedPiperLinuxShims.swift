// Linux build shim for the ORIGINAL PiedPiper (not a change to its code): Darwin exports NSEC_PER_SEC.
#if os(Linux)
import Foundation
let NSEC_PER_SEC: UInt64 = 1_000_000_000
#endif
