#!/usr/bin/env bash
# Installs the external binaries complyd's tests start, at pinned versions, into
# $(go env GOPATH)/bin. Idempotent: a tool already there at the pinned version is left alone.
# CI runs this before `go test ./...` (with CI=true, tests fail rather than skip without them).
set -euo pipefail

VERSITYGW_VERSION="v1.8.0" # S3-compatible server for internal/s3 tests (Apache-2.0)

# xmllint (Debian libxml2-utils): the goAML schema validator the reports tests and the server run
# (docs/guide/reports.md "Validation"). As root, or through sudo without a password (a fresh CI
# runner's user); otherwise install it by hand.
if ! command -v xmllint >/dev/null 2>&1; then
	as_root=()
	if [[ "$(id -u)" != 0 ]] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		as_root=(sudo -n)
	fi
	if { [[ "$(id -u)" == 0 ]] || [[ ${#as_root[@]} -gt 0 ]]; } && command -v apt-get >/dev/null 2>&1; then
		echo "installing libxml2-utils (xmllint)"
		"${as_root[@]}" apt-get update -qq && "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libxml2-utils
	else
		echo "xmllint is missing: apt-get install libxml2-utils" >&2
		exit 1
	fi
fi

bindir="$(go env GOPATH | cut -d: -f1)/bin"
mkdir -p "$bindir"

# `go install` does not stamp versitygw's --version, so read the module version from the binary.
if [[ -x "$bindir/versitygw" ]] &&
	go version -m "$bindir/versitygw" 2>/dev/null | grep -Eq "^\s+mod\s+github.com/versity/versitygw\s+${VERSITYGW_VERSION}\s"; then
	echo "versitygw ${VERSITYGW_VERSION} already in $bindir"
else
	echo "installing versitygw ${VERSITYGW_VERSION} into $bindir (takes a few minutes)"
	# The local module cache first: the filtered proxy may refuse version lists (notes/toolchain.md §0).
	GOBIN="$bindir" GOPROXY="file://$(go env GOMODCACHE)/cache/download,$(go env GOPROXY)" \
		go install "github.com/versity/versitygw/cmd/versitygw@${VERSITYGW_VERSION}"
fi
