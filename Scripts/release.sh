#!/usr/bin/env bash
# Tags a release of Carlos after checking the tree:
#
#   Scripts/release.sh VERSION            # checks, runs CI (.ci/run), checks the API, tags
#   Scripts/release.sh VERSION --dry-run  # the checks only: no CI, no API check, no tag
#
# Checks, in order, each failing with a message that names what to fix:
# - VERSION is a semantic version (1.2.3 or 1.2.3-rc.1), and no tag has that name yet;
# - the working tree is clean (the tag names the commit that was checked);
# - the file VERSION says the same version;
# - CHANGELOG.md has a heading `## VERSION` that does not say "not yet released";
# - every Markdown line (READMEs, MIGRATION.md, DocC articles) that depends on this package by URL
#   (`Carlos.git", from: "…"`) names that version;
# - `bash .ci/run` passes on this tree;
# - when an earlier tag exists: `swift package diagnose-api-breaking-changes` against the
#   latest one; a breaking change is allowed only in a new major version.
# Then it makes an annotated tag VERSION (no `v` in front). Pushing it is left to you.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "release: $*" >&2
  exit 1
}

version="${1:-}"
dry_run=false
[ "${2:-}" = "--dry-run" ] && dry_run=true
[ -n "$version" ] || fail "usage: Scripts/release.sh VERSION [--dry-run]"
[[ "$version" =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$ ]] \
  || fail "'$version' is not a semantic version (1.2.3, or 1.2.3-rc.1)"
major="${BASH_REMATCH[1]}"
if git rev-parse -q --verify "refs/tags/$version" > /dev/null; then
  fail "the tag $version exists already"
fi

[ -z "$(git status --porcelain)" ] || fail "the working tree has changes: commit or stash them first"

recorded="$(tr -d '[:space:]' < VERSION)"
[ "$recorded" = "$version" ] || fail "the file VERSION says '$recorded', not '$version'"

heading="$(grep -m1 -E "^## ${version//./\\.}( |$)" CHANGELOG.md || true)"
[ -n "$heading" ] || fail "CHANGELOG.md has no entry '## $version'"
if grep -qi "not yet released" <<< "$heading"; then
  fail "CHANGELOG.md still calls $version not yet released: '$heading'"
fi

stale="$(grep -rn --include="*.md" -E 'Carlos\.git", from: "' . \
  | grep -v "/\.build" | grep -v "from: \"$version\"" || true)"
[ -z "$stale" ] || fail "these lines depend on another version than $version:
$stale"

echo "release: $version: version, CHANGELOG.md and READMEs agree"
if $dry_run; then
  echo "release: dry run: no CI, no API check, no tag"
  exit 0
fi

echo "release: running .ci/run (about 40 minutes)"
bash .ci/run || fail "CI failed: no tag"

previous="$(git describe --tags --abbrev=0 2> /dev/null || true)"
if [ -n "$previous" ]; then
  previous_major="${previous%%.*}"
  echo "release: API against $previous"
  if ! swift package --scratch-path .build-api diagnose-api-breaking-changes "$previous"; then
    [ "$major" != "$previous_major" ] \
      || fail "breaking API changes since $previous need a new major version"
    echo "release: breaking changes since $previous, allowed in a new major version"
  fi
else
  echo "release: no earlier tag: no API to compare with"
fi

git tag -a "$version" -m "Carlos $version"
echo "release: tagged $version at $(git rev-parse --short HEAD); push it with: git push origin $version"
