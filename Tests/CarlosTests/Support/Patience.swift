import Foundation

/// Whether the tests run under ThreadSanitizer (its runtime is linked in).
let underThreadSanitizer: Bool = {
  guard let program = dlopen(nil, RTLD_NOW) else { return false }
  defer { dlclose(program) }
  return dlsym(program, "__tsan_init") != nil
}()

/// The longest a test waits for something that should happen promptly: a minute,
/// five under ThreadSanitizer, where the whole suite runs several times slower and
/// long synchronous tests keep the cooperative threads busy for a while.
let patience: TimeInterval = underThreadSanitizer ? 300 : 60
