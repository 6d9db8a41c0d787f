// Summarises a results file of the http-tests/cache-tests suite.
//
//   node Scripts/summarise-cache-tests.mjs RESULTS.json CACHE_TESTS_FOLDER
//
// Counts the tests a shared cache runs (browser-only tests are left out, as the
// suite's command line does) and prints how many passed (a `true` result,
// whatever the test's kind), how many required tests (kind `required` or none)
// did not, and the id and reason of each of those. A required test counts as
// failed whatever its result says: an assertion, a setup failure, a failed
// dependency, or no result at all (the interim-response tests cannot run from
// the command line). The kinds come from the suite's own test definitions. It
// then prints how the suite's own report would show those failures: a failed
// assertion (⛔️), a setup failure (🔹: a step before the tested one went
// otherwise than the test needs), a failed dependency (⚪️), or not run.
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const [resultsPath, suiteFolder] = process.argv.slice(2)
if (!resultsPath || !suiteFolder) {
  console.error('usage: summarise-cache-tests.mjs RESULTS.json CACHE_TESTS_FOLDER')
  process.exit(2)
}
const results = JSON.parse(fs.readFileSync(resultsPath, 'utf8'))
const index = pathToFileURL(path.resolve(suiteFolder, 'tests/index.mjs')).href
const suites = (await import(index)).default

let total = 0
let passed = 0
let required = 0
const requiredFailures = []
for (const suite of suites) {
  for (const test of suite.tests) {
    if (test.browser_only === true) continue
    total += 1
    const result = results[test.id]
    if (result === true) passed += 1
    if (test.kind === undefined || test.kind === 'required') {
      required += 1
      if (result !== true) {
        const failedDependencies = (test.depends_on ?? []).filter(id => results[id] !== true)
        let reason = result === undefined ? 'not run' : Array.isArray(result) ? result.join(': ') : String(result)
        if (failedDependencies.length > 0) reason += ` (depends on failed ${failedDependencies.join(', ')})`
        const shown = failedDependencies.length > 0 ? 'dependency failures'
          : result === undefined ? 'not run'
          : Array.isArray(result) && result[0] === 'Setup' ? 'setup failures'
          : 'failed assertions'
        requiredFailures.push({ suite: suite.id, id: test.id, reason, shown })
      }
    }
  }
}
console.log(`passed: ${passed} of ${total}`)
console.log(`required failed: ${requiredFailures.length} of ${required}`)
const shown = {}
for (const failure of requiredFailures) shown[failure.shown] = (shown[failure.shown] ?? 0) + 1
if (requiredFailures.length > 0) {
  const counts = Object.entries(shown).map(([kind, count]) => `${count} ${kind}`).join(', ')
  console.log(`as the suite's own report shows them: ${counts}`)
}
for (const failure of requiredFailures) {
  console.log(`- ${failure.suite} / ${failure.id}: ${failure.reason}`)
}
