// `import Carlos` brings the futures with it. Foundation is not re-exported: its
// `Timer` and others would clash with server packages' names (swift-metrics' `Timer`)
// in every file that imports Carlos; import Foundation for `URL` and `Data`.
@_exported import PiedPiper
