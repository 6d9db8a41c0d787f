// `import Carlos` is enough: the futures and the Foundation types of the API
// (`URL`, `Data`, `Date`) come with it.
@_exported import Foundation
@_exported import PiedPiper
