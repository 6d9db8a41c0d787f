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

/// A delay no test outlives: a response delayed this long, or a write held this
/// long, ends only when the test ends it (a cancel, a stop, a release), however
/// long the machine keeps the test from running. A shorter fixed delay (two
/// minutes) ran out in a loaded ThreadSanitizer run, and the test then saw a
/// completed request where it meant to cancel a pending one.
let longerThanAnyTest: TimeInterval = 4 * patience
